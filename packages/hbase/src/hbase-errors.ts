import { BackendError, CrawlerError, redactUrl, ErrorCode } from '@crawler/core';

/** A page has a cell larger than HBase accepts even after compression; retrying cannot help. */
export class CellTooLargeError extends CrawlerError {
  constructor(message: string) {
    super(ErrorCode.HBASE_CELL_TOO_LARGE, message);
  }
}

/** A stored cell (or a page's gzip body) cannot be decoded: unknown encoding byte, bad gzip or JSON. */
export class CellEncodingError extends CrawlerError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(ErrorCode.HBASE_CELL_ENCODING, message, options);
  }
}

/** What a REST call was doing, for the error message: never cell values. */
export interface RestCallContext {
  operation: string;
  table?: string;
  row?: string;
}

function describeContext(context: RestCallContext): string {
  const table = context.table === undefined ? '' : ` on table ${context.table}`;
  return `hbase ${context.operation}${table}${context.row === undefined ? '' : ` (row ${JSON.stringify(context.row)})`}`;
}

/**
 * The gateway's answer as a BackendError. 4xx are the request's fault (missing table or family,
 * a cell over the size limit) and will fail again; 5xx and 503 are HBase's own trouble (region
 * moving, server restarting) and may pass.
 */
export function httpError(context: RestCallContext, status: number, body: string): BackendError {
  // The gateway answers with a Java exception and its stack; its first line is the useful part.
  const reason =
    body.split(/\r?\n/).find((line) => line.trim() !== '' && !/^(Not found|Bad request)\s*$/i.test(line.trim())) ??
    body.trim();
  const passing = status >= 500 || status === 408 || status === 429;
  return new BackendError(`${describeContext(context)} failed: HTTP ${status} ${reason.slice(0, 300)}`.trimEnd(), {
    code: passing ? ErrorCode.BACKEND_UNAVAILABLE : ErrorCode.BACKEND_REFUSED,
  });
}

/** A request that got no answer: refused, reset, timed out. Always retriable. */
export function networkError(context: RestCallContext, baseUrl: string, error: unknown): BackendError {
  const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code =
    cause && typeof cause === 'object' && 'code' in cause && typeof cause.code === 'string' ? cause.code : undefined;
  const detail = timedOut ? 'no answer in time' : `${code ?? (cause instanceof Error ? cause.message : String(cause))}`;
  return new BackendError(`${describeContext(context)} failed: ${detail} (gateway ${redactUrl(baseUrl)})`, {
    cause: error,
  });
}
