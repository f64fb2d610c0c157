import { BackendError, CrawlerError, redactUrl, ErrorCode } from '@crawler/core';

/** A namespace, key or TTL that cannot become a Redis key or expiry; a bug in the caller, not worth a retry. */
export class FingerprintArgumentError extends CrawlerError {
  constructor(message: string) {
    super(ErrorCode.FINGERPRINT_INVALID_ARGUMENT, message);
  }
}

/** Replies that mean "this slot is served elsewhere or moving": ioredis can settle them by retrying. */
const REDIRECTION = /^(MOVED|ASK|TRYAGAIN|CLUSTERDOWN) /;
/** Retrying cannot help: credentials or permissions are wrong, or a key holds the wrong type. */
const PERMANENT = /^(WRONGPASS|NOAUTH|NOPERM|WRONGTYPE) /;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** ClusterAllFailedError says only "Failed to refresh slots cache"; the node's reason is beside it. */
function nodeCause(error: unknown): unknown {
  return error && typeof error === 'object' && 'lastNodeError' in error ? error.lastNodeError : undefined;
}

export function isRedirection(error: unknown): boolean {
  return REDIRECTION.test(messageOf(error));
}

export function isAuthError(error: unknown): boolean {
  const text = `${messageOf(error)} ${messageOf(nodeCause(error) ?? '')}`;
  return /(^|\s)(WRONGPASS|NOAUTH|NOPERM) /.test(text);
}

function isPermanent(error: unknown): boolean {
  return PERMANENT.test(messageOf(error)) || isAuthError(error);
}

/**
 * The error's text without secrets. ioredis attaches the failed command (AUTH user password
 * included) to reply errors, so only the message is ever kept, and known secrets are cut from it.
 */
export function describeRedisError(error: unknown, secrets: readonly string[]): string {
  const name = error instanceof Error && error.name !== 'Error' && error.name !== 'ReplyError' ? `${error.name}: ` : '';
  const cause = nodeCause(error);
  let text = `${name}${messageOf(error)}${cause ? ` (${messageOf(cause)})` : ''}`;
  if (error instanceof Error && error.name === 'MaxRetriesPerRequestError')
    text = 'connection lost before the reply came';
  for (const secret of secrets) if (secret) text = text.split(secret).join('[redacted]');
  return redactUrl(text);
}

/** Any failure of a store call as a BackendError naming the operation; the cause is scrubbed too. */
export function toBackendError(operation: string, error: unknown, secrets: readonly string[]): CrawlerError {
  if (error instanceof CrawlerError) return error;
  const description = describeRedisError(error, secrets);
  const cause = Object.assign(new Error(description), {
    name: error instanceof Error ? error.name : 'Error',
    ...(error && typeof error === 'object' && 'code' in error && typeof error.code === 'string'
      ? { code: error.code }
      : {}),
  });
  return new BackendError(`redis ${operation} failed: ${description}`, {
    code: isPermanent(error) ? ErrorCode.BACKEND_REFUSED : ErrorCode.BACKEND_UNAVAILABLE,
    cause,
  });
}
