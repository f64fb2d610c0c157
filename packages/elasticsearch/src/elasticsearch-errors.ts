import { errors } from '@elastic/elasticsearch';
import { BackendError, ErrorCode } from '@crawler/core';

/** One bulk item the cluster refused for a reason other than the expected version conflict. */
export interface BulkFailure {
  id: string;
  status: number;
  type: string;
  reason: string;
}

/** Overload and server faults pass; a refused request (bad mapping, bad query) fails the same way again. */
export function isRetriableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/** Some bulk items failed: the failures travel with the error, so none is dropped unseen. */
export class BulkItemsError extends BackendError {
  constructor(
    readonly operation: string,
    readonly index: string,
    readonly failures: BulkFailure[],
  ) {
    const shown = failures
      .slice(0, 3)
      .map((failure) => `${failure.id}: ${failure.status} ${failure.type} (${failure.reason})`);
    super(
      `elasticsearch ${operation} on index ${index}: ${failures.length} bulk item(s) failed: ${shown.join('; ')}${failures.length > 3 ? '; ...' : ''}`,
      {
        code: failures.every((failure) => isRetriableStatus(failure.status))
          ? ErrorCode.BACKEND_UNAVAILABLE
          : ErrorCode.BACKEND_REFUSED,
      },
    );
  }
}

/** What the client threw, as a BackendError naming the operation, the index and the node (never its credentials). */
export function toBackendError(error: unknown, operation: string, index: string, node: string): BackendError {
  if (error instanceof BackendError) return error;
  const where = `elasticsearch ${operation} on index ${index} at ${node}`;
  if (error instanceof errors.ResponseError) {
    const status = error.statusCode ?? 0;
    const { type, reason } = responseCause(error);
    return new BackendError(
      `${where} failed: HTTP ${status} ${[type, reason].filter(Boolean).join(': ') || error.message}`,
      { code: isRetriableStatus(status) ? ErrorCode.BACKEND_UNAVAILABLE : ErrorCode.BACKEND_REFUSED, cause: error },
    );
  }
  if (error instanceof errors.ConnectionError || error instanceof errors.NoLivingConnectionsError) {
    return new BackendError(`${where} failed: cluster unreachable (${error.message})`, { cause: error });
  }
  if (error instanceof errors.TimeoutError) return new BackendError(`${where} timed out`, { cause: error });
  const message = error instanceof Error ? error.message : String(error);
  return new BackendError(`${where} failed: ${message}`, {
    code: error instanceof errors.ConfigurationError ? ErrorCode.BACKEND_REFUSED : ErrorCode.BACKEND_UNAVAILABLE,
    cause: error,
  });
}

/** The `error` object of a refused request's body: its type and reason. */
export function responseCause(error: unknown): { type?: string; reason?: string } {
  if (!(error instanceof errors.ResponseError)) return {};
  const body: unknown = error.body;
  const cause =
    typeof body === 'object' && body !== null && 'error' in body ? (body as { error: unknown }).error : undefined;
  if (typeof cause === 'object' && cause !== null) return cause as { type?: string; reason?: string };
  return typeof cause === 'string' ? { reason: cause } : {};
}
