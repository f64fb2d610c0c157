import { CrawlerError, decoratePort, errorMessage, ErrorCode } from '@crawler/core';

/**
 * The crawl could not write its output (a full disk, a quota, a file size limit, a read-only or
 * failing disk). Retrying would not help and would only hide it: the crawl stops and says where.
 */
export class WriteFailedError extends CrawlerError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(ErrorCode.CRAWL_WRITE_FAILED, message, options);
  }
}

/** Error codes that mean the disk refuses what is written, whatever the call. */
const DISK_FULL_OR_BROKEN = new Set(['ENOSPC', 'EDQUOT', 'EFBIG', 'EROFS', 'EIO']);
/** Codes that mean the same only when they come from a call that writes. */
const REFUSED = new Set(['EACCES', 'EPERM']);
const WRITING_CALLS = new Set(['open', 'write', 'mkdir', 'rename', 'fsync', 'ftruncate', 'copyfile', 'unlink']);

/** The system error in `error`'s cause chain that says a local write failed, or null. */
export function localWriteError(error: unknown): NodeJS.ErrnoException | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const { code, syscall } = current as NodeJS.ErrnoException;
    if (typeof code === 'string' && typeof syscall === 'string') {
      if (DISK_FULL_OR_BROKEN.has(code) || (REFUSED.has(code) && WRITING_CALLS.has(syscall)))
        return current as NodeJS.ErrnoException;
    }
    current = current.cause;
  }
  return null;
}

/** One line naming what could not be written, where, and the system's reason. */
export function describeWriteFailure(where: string, error: unknown, cause: Error): string {
  const outer = errorMessage(error);
  return outer === cause.message
    ? `cannot write ${where}: ${outer}`
    : `cannot write ${where}: ${outer}: ${cause.message}`;
}

/** Remembers the first write failure and aborts `signal` with it, so a crawl stops at once. */
export class WriteFailureLatch {
  private readonly controller = new AbortController();
  private first: WriteFailedError | null = null;

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get failure(): WriteFailedError | null {
    return this.first;
  }

  /** Records `error` if it is a local write failure; returns whether it was. */
  report = (where: string, error: unknown): boolean => {
    const cause = localWriteError(error);
    if (cause) this.fail(new WriteFailedError(describeWriteFailure(where, error, cause), { cause: error }));
    return cause !== null;
  };

  /** Records a failure that stops the crawl whatever its code (the crawl's own log cannot be written). */
  fail(failure: WriteFailedError): void {
    if (this.first) return;
    this.first = failure;
    this.controller.abort(failure);
  }
}

/**
 * The port with every call watched: a call that fails because the disk refused a write reports
 * it (and still fails, so the caller's own handling is unchanged).
 */
export function watchWrites<T extends object>(port: T, where: string, latch: WriteFailureLatch): T {
  return decoratePort(port, (call) => (...args) => {
    let result: unknown;
    try {
      result = call(...args);
    } catch (error) {
      latch.report(where, error);
      throw error;
    }
    if (!(result instanceof Promise)) return result;
    return result.catch((error: unknown) => {
      latch.report(where, error);
      throw error;
    });
  });
}
