import { ErrorCode, errorCodes } from './error-codes.js';

/**
 * Every error the crawler raises on purpose is a CrawlerError with a fixed `code` from the
 * registry (error-codes.ts), whose flag says whether it is `retriable`. Retry logic reads the
 * flag, never the message text.
 */
export class CrawlerError extends Error {
  readonly code: ErrorCode;
  readonly retriable: boolean;

  constructor(code: ErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.retriable = errorCodes[code].retriable;
  }
}

/** A setting is missing or invalid; the message names the environment variable and how to fix it. */
export class ConfigError extends CrawlerError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(ErrorCode.CRAWLER_CONFIG_INVALID, message, options);
  }
}

/** Bytes on a topic are not a message of a known schema (bad magic, unknown fingerprint, corrupt body). */
export class CodecError extends CrawlerError {
  constructor(code: Extract<ErrorCode, `CODEC_${string}`>, message: string, options: { cause?: unknown } = {}) {
    super(code, message, options);
  }
}

/** A message is larger than its topic allows even after truncation. */
export class MessageTooLargeError extends CrawlerError {
  constructor(message: string) {
    super(ErrorCode.MESSAGE_TOO_LARGE, message);
  }
}

/**
 * A consumed record is larger than its topic's maxMessageBytes in the catalog: no crawler producer
 * writes one (a compressed batch passes the broker's check), so it is refused before decoding.
 */
export class InputTooLargeError extends CrawlerError {
  constructor(message: string) {
    super(ErrorCode.INPUT_TOO_LARGE, message);
  }
}

/**
 * A store or the bus failed: unavailable for now (the default; worth retrying, and an outage when
 * it lasts), or refusing the request as it is (BACKEND_REFUSED: a bad request, a closed store).
 */
export class BackendError extends CrawlerError {
  constructor(
    message: string,
    options: { code?: typeof ErrorCode.BACKEND_UNAVAILABLE | typeof ErrorCode.BACKEND_REFUSED; cause?: unknown } = {},
  ) {
    super(options.code ?? ErrorCode.BACKEND_UNAVAILABLE, message, { cause: options.cause });
  }
}

/** Whether another attempt may succeed: the flag of the error's code; an error the crawler did not name is tried again. */
export function isRetriable(error: unknown): boolean {
  return error instanceof CrawlerError ? error.retriable : errorCodes.UNEXPECTED.retriable;
}

/** The error's code: the crawler's own, another library's (Node's errno, undici's), or UNEXPECTED. */
export function errorCode(error: unknown): string {
  if (error instanceof CrawlerError) return error.code;
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string') return error.code;
  return ErrorCode.UNEXPECTED;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
