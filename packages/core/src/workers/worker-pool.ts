import { Worker } from 'node:worker_threads';
import { sleep } from '../runtime/sleep.js';
import type { TaskReply } from './serve-worker-tasks.js';
import { WorkerCrashedError, WorkerPoolClosedError, WorkerTaskError } from './worker-errors.js';

export interface WorkerPoolOptions {
  /** Names the pool in errors and thread names. */
  name: string;
  /** The worker module (it calls serveWorkerTasks); see builtModule. */
  script: URL;
  /** Threads at most; each starts when a task first finds the others busy. */
  size: number;
  /** Handed to every thread as `workerData` (its settings). */
  workerData?: unknown;
}

interface Pending {
  resolve: (value: never) => void;
  reject: (error: unknown) => void;
}

interface Member {
  worker: Worker;
  tasks: Map<number, Pending>;
}

/**
 * CPU-bound work on worker threads: each task goes to the thread with the fewest open tasks, so a
 * thread never idles while another holds two. A thread that dies fails only the tasks it held,
 * with a retriable WorkerCrashedError, and the next task that needs its place starts a new one.
 * Threads keep the process alive only while they hold tasks.
 */
export class WorkerPool<In, Out> {
  private readonly members: (Member | null)[];
  private nextId = 1;
  private closed = false;
  /** Threads that died while the pool was open: a test hook. */
  crashes = 0;

  constructor(private readonly options: WorkerPoolOptions) {
    if (!Number.isInteger(options.size) || options.size < 1)
      throw new RangeError(`worker pool ${options.name}: size must be a positive integer, got ${options.size}`);
    this.members = Array.from({ length: options.size }, () => null);
  }

  /** Threads running now. */
  get threads(): number {
    return this.members.filter(Boolean).length;
  }

  /** Open tasks over all threads. */
  get pending(): number {
    return this.members.reduce((sum, member) => sum + (member?.tasks.size ?? 0), 0);
  }

  /** Runs one task; `transfer` lists buffers of the input to move to the thread instead of copying. */
  run(input: In, transfer: ArrayBuffer[] = []): Promise<Out> {
    if (this.closed) return Promise.reject(new WorkerPoolClosedError(this.options.name));
    let slot = 0;
    for (let i = 1; i < this.members.length; i++)
      if ((this.members[i]?.tasks.size ?? 0) < (this.members[slot]?.tasks.size ?? 0)) slot = i;
    const member = (this.members[slot] ??= this.spawn(slot));
    const id = this.nextId++;
    // Held open while a task is out, so a process waiting on its result does not exit under it.
    if (member.tasks.size === 0) member.worker.ref();
    return new Promise<Out>((resolve, reject) => {
      member.tasks.set(id, { resolve: resolve as (value: never) => void, reject });
      member.worker.postMessage({ id, input }, transfer);
    });
  }

  /**
   * Takes no more tasks, lets open ones finish for up to `drainMs`, then stops every thread; what
   * is still open then fails with a retriable WorkerPoolClosedError.
   */
  async close(drainMs = 0): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (drainMs > 0 && this.pending > 0) {
      const deadline = performance.now() + drainMs;
      while (this.pending > 0 && performance.now() < deadline) await sleep(Math.min(10, drainMs));
    }
    const members = this.members.splice(0).filter((member): member is Member => member !== null);
    for (const member of members) this.failAll(member, new WorkerPoolClosedError(this.options.name));
    await Promise.all(members.map((member) => member.worker.terminate()));
  }

  private spawn(slot: number): Member {
    // No flags of the parent: a thread refuses process-wide ones (--max-old-space-size), and the test
    // runner's resolution conditions would pick TypeScript sources the thread cannot load.
    const worker = new Worker(this.options.script, {
      workerData: this.options.workerData,
      name: `${this.options.name}-${slot}`,
      execArgv: [],
    });
    const member: Member = { worker, tasks: new Map() };
    worker.unref();
    worker.on('message', (reply: TaskReply<Out>) => {
      const task = member.tasks.get(reply.id);
      if (!task) return;
      member.tasks.delete(reply.id);
      if (member.tasks.size === 0) worker.unref();
      if (reply.ok) task.resolve(reply.value as never);
      else task.reject(new WorkerTaskError(reply.failure));
    });
    let failure: unknown = null;
    worker.on('error', (error) => (failure = error));
    worker.on('exit', (exitCode) => {
      if (this.members[slot] !== member) return;
      this.members[slot] = null;
      this.crashes++;
      const reason = failure instanceof Error ? failure.message : `exit code ${exitCode}`;
      this.failAll(
        member,
        new WorkerCrashedError(`${this.options.name}-${slot}`, reason, { cause: failure ?? undefined }),
      );
    });
    return member;
  }

  private failAll(member: Member, error: unknown): void {
    const tasks = [...member.tasks.values()];
    member.tasks.clear();
    for (const task of tasks) task.reject(error);
  }
}
