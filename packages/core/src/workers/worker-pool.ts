import { Worker } from 'node:worker_threads';
import { sleep } from '../runtime/sleep.js';
import type { TaskReply } from './serve-worker-tasks.js';
import { WorkerCrashedError, WorkerPoolClosedError, WorkerTaskError } from './worker-errors.js';

export interface WorkerPoolOptions {
  /** Names the pool in errors and thread names. */
  name: string;
  /** The worker module (it calls serveWorkerTasks); see builtModule. */
  script: URL;
  /** Threads at most; each starts when a task finds the others busy. */
  size: number;
  /** Handed to every thread as `workerData` (its settings). */
  workerData?: unknown;
}

interface Task {
  id: number;
  input: unknown;
  transfer: ArrayBuffer[];
  resolve: (value: never) => void;
  reject: (error: unknown) => void;
}

interface Member {
  worker: Worker;
  /** The one task the thread holds: when it dies, that task is the one that killed it. */
  task: Task | null;
}

/**
 * CPU-bound work on worker threads. A thread holds one task at a time and the rest wait here, in
 * order: a thread that dies fails only the task it held (a retriable WorkerCrashedError), never
 * pages that happened to share its queue, and the next task starts a fresh thread. Threads keep
 * the process alive only while they hold a task.
 */
export class WorkerPool<In, Out> {
  private readonly members: Member[] = [];
  private readonly queue: Task[] = [];
  private nextId = 1;
  private started = 0;
  private closed = false;
  /** Threads that died while the pool was open: a test hook. */
  crashes = 0;

  constructor(private readonly options: WorkerPoolOptions) {
    if (!Number.isInteger(options.size) || options.size < 1)
      throw new RangeError(`worker pool ${options.name}: size must be a positive integer, got ${options.size}`);
  }

  /** Threads running now. */
  get threads(): number {
    return this.members.length;
  }

  /** Tasks held by threads or waiting for one. */
  get pending(): number {
    return this.queue.length + this.members.filter((member) => member.task !== null).length;
  }

  /** Runs one task; `transfer` lists buffers of the input to move to the thread instead of copying. */
  run(input: In, transfer: ArrayBuffer[] = []): Promise<Out> {
    if (this.closed) return Promise.reject(new WorkerPoolClosedError(this.options.name));
    return new Promise<Out>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, input, transfer, resolve: resolve as (value: never) => void, reject });
      this.dispatch();
    });
  }

  /**
   * Takes no more tasks, lets those open or waiting finish for up to `drainMs`, then stops every
   * thread; what is still open then fails with a retriable WorkerPoolClosedError.
   */
  async close(drainMs = 0): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const deadline = performance.now() + drainMs;
    while (this.pending > 0 && performance.now() < deadline) await sleep(Math.min(10, drainMs));
    const members = this.members.splice(0);
    const left = [...this.queue.splice(0), ...members.flatMap((member) => (member.task ? [member.task] : []))];
    for (const task of left) task.reject(new WorkerPoolClosedError(this.options.name));
    await Promise.all(members.map((member) => member.worker.terminate()));
  }

  /** Hands waiting tasks to idle threads, starting threads up to the pool's size. */
  private dispatch(): void {
    while (this.queue.length > 0) {
      let member = this.members.find((candidate) => candidate.task === null);
      if (!member) {
        if (this.members.length >= this.options.size) return;
        member = this.spawn();
      }
      const task = this.queue.shift()!;
      member.task = task;
      // Held open while a task is out, so a process waiting on its result does not exit under it.
      member.worker.ref();
      member.worker.postMessage({ id: task.id, input: task.input }, task.transfer);
    }
  }

  private spawn(): Member {
    const name = `${this.options.name}-${this.started++}`;
    // No flags of the parent: a thread refuses process-wide ones (--max-old-space-size), and the test
    // runner's resolution conditions would pick TypeScript sources the thread cannot load.
    const worker = new Worker(this.options.script, { workerData: this.options.workerData, name, execArgv: [] });
    const member: Member = { worker, task: null };
    this.members.push(member);
    worker.unref();
    worker.on('message', (reply: TaskReply<Out>) => {
      const task = member.task;
      if (!task || task.id !== reply.id) return;
      member.task = null;
      worker.unref();
      if (reply.ok) task.resolve(reply.value as never);
      else task.reject(new WorkerTaskError(reply.failure));
      this.dispatch();
    });
    let failure: unknown = null;
    worker.on('error', (error) => (failure = error));
    worker.on('exit', (exitCode) => {
      const index = this.members.indexOf(member);
      if (index < 0) return;
      this.members.splice(index, 1);
      this.crashes++;
      const reason = failure instanceof Error ? failure.message : `exit code ${exitCode}`;
      member.task?.reject(new WorkerCrashedError(name, reason, { cause: failure ?? undefined }));
      member.task = null;
      this.dispatch();
    });
    return member;
  }
}
