import { parentPort } from 'node:worker_threads';
import { toTaskFailure, type TaskFailure } from './worker-errors.js';

export interface TaskRequest<In> {
  id: number;
  input: In;
}

export type TaskReply<Out> = { id: number; ok: true; value: Out } | { id: number; ok: false; failure: TaskFailure };

/**
 * The worker side of a WorkerPool: runs `handler` on every task the pool posts and answers with
 * its value or its error. `transferOf` names buffers of a value to move rather than copy.
 */
export function serveWorkerTasks<In, Out>(
  handler: (input: In) => Out | Promise<Out>,
  transferOf?: (value: Out) => ArrayBuffer[],
): void {
  const port = parentPort;
  if (!port) throw new Error('serveWorkerTasks runs inside a worker thread');
  port.on('message', async ({ id, input }: TaskRequest<In>) => {
    let reply: TaskReply<Out>;
    try {
      reply = { id, ok: true, value: await handler(input) };
    } catch (error) {
      reply = { id, ok: false, failure: toTaskFailure(error) };
    }
    port.postMessage(reply, reply.ok && transferOf ? transferOf(reply.value) : []);
  });
}
