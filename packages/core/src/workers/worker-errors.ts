import { CrawlerError } from '../errors.js';

/** A worker thread died (out of memory, a native crash, exit) while it held the task. */
export class WorkerCrashedError extends CrawlerError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super('WORKER_CRASHED', message, { retriable: true, cause: options.cause });
  }
}

/** The pool was closed before the task ran or finished. */
export class WorkerPoolClosedError extends CrawlerError {
  constructor(name: string) {
    super('WORKER_POOL_CLOSED', `worker pool ${name} is closed`, { retriable: true });
  }
}

/**
 * An error the task threw inside its worker, with the thrown error's name, code and retriable
 * flag: the stage decides on it as it would on the same error thrown in place.
 */
export class WorkerTaskError extends CrawlerError {
  readonly originalName: string;

  constructor(failure: TaskFailure) {
    super(failure.code, failure.message, { retriable: failure.retriable });
    this.originalName = failure.name;
  }
}

/** What crosses the thread boundary when a task throws. */
export interface TaskFailure {
  name: string;
  message: string;
  code: string;
  retriable: boolean;
}
