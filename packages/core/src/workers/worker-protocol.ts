import { errorCode, errorMessage, isRetriable } from '../errors.js';
import type { TaskFailure } from './worker-errors.js';

export interface TaskRequest<In> {
  id: number;
  input: In;
}

export type TaskReply<Out> = { id: number; ok: true; value: Out } | { id: number; ok: false; failure: TaskFailure };

export function toTaskFailure(error: unknown): TaskFailure {
  return { name: error instanceof Error ? error.name : 'Error', message: errorMessage(error), code: errorCode(error), retriable: isRetriable(error) };
}
