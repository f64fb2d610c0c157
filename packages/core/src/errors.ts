/**
 * Every error the crawler raises on purpose is a CrawlerError with a fixed `code` and a `retriable`
 * flag. Retry logic reads the flag, never the message text.
 */
export class CrawlerError extends Error {
  readonly code: string;
  readonly retriable: boolean;

  constructor(code: string, message: string, options: { retriable?: boolean; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.retriable = options.retriable ?? false;
  }
}

/** A setting is missing or invalid; the message names the environment variable and how to fix it. */
export class ConfigError extends CrawlerError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super('CRAWLER_CONFIG_INVALID', message, options);
  }
}

/** Bytes on a topic are not a message of a known schema (bad magic, unknown fingerprint, corrupt body). */
export class CodecError extends CrawlerError {
  constructor(
    code: 'CODEC_BAD_HEADER' | 'CODEC_UNKNOWN_SCHEMA' | 'CODEC_CORRUPT' | 'CODEC_WRONG_SCHEMA' | 'CODEC_INVALID_VALUE',
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(code, message, options);
  }
}

/** A message is larger than its topic allows even after truncation. */
export class MessageTooLargeError extends CrawlerError {
  constructor(message: string) {
    super('MESSAGE_TOO_LARGE', message);
  }
}

/**
 * A consumed record is larger than its topic's maxMessageBytes in the catalog: no crawler producer
 * writes one (a compressed batch passes the broker's check), so it is refused before decoding.
 */
export class InputTooLargeError extends CrawlerError {
  constructor(message: string) {
    super('INPUT_TOO_LARGE', message);
  }
}

/** A store or bus is unreachable or answered with an error; usually worth retrying. */
export class BackendError extends CrawlerError {
  constructor(message: string, options: { retriable?: boolean; cause?: unknown } = {}) {
    super('BACKEND_UNAVAILABLE', message, { retriable: options.retriable ?? true, cause: options.cause });
  }
}

/** Reads `retriable` from anything thrown; unknown errors are treated as retriable once by callers. */
export function isRetriable(error: unknown): boolean {
  return error instanceof CrawlerError ? error.retriable : true;
}

export function errorCode(error: unknown): string {
  if (error instanceof CrawlerError) return error.code;
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string') return error.code;
  return 'UNEXPECTED';
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
