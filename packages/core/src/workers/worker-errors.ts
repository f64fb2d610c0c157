import { ErrorCode, errorCodes } from '../error-codes.js';
import { CrawlerError, errorCode, errorMessage } from '../errors.js';

/** A worker thread died (out of memory, a native crash, an exit) while it held the task. */
export class WorkerCrashedError extends CrawlerError {
  constructor(
    thread: string,
    /** Why it stopped: its error's message, or its exit code. */
    readonly reason: string,
    options: { cause?: unknown } = {},
  ) {
    super(ErrorCode.WORKER_CRASHED, `worker ${thread} stopped: ${reason}`, options);
  }
}

/** The pool was closed before the task finished. */
export class WorkerPoolClosedError extends CrawlerError {
  constructor(pool: string) {
    super(ErrorCode.WORKER_POOL_CLOSED, `worker pool ${pool} is closed`);
  }
}

/** What crosses the thread boundary when a task throws. */
export interface TaskFailure {
  name: string;
  message: string;
  code: string;
}

export function toTaskFailure(error: unknown): TaskFailure {
  return { name: error instanceof Error ? error.name : 'Error', message: errorMessage(error), code: errorCode(error) };
}

/**
 * An error a task threw inside its worker, with the thrown error's code (and so its retriable
 * flag): the stage decides on it as on the same error thrown in place. A code of another library
 * becomes UNEXPECTED, as it would be classified in place.
 */
export class WorkerTaskError extends CrawlerError {
  readonly originalName: string;

  constructor(failure: TaskFailure) {
    super(failure.code in errorCodes ? (failure.code as ErrorCode) : ErrorCode.UNEXPECTED, failure.message);
    this.originalName = failure.name;
  }
}
