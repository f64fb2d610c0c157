import { Worker, type ResourceLimits } from 'node:worker_threads';
import { WorkerCrashedError, WorkerPoolClosedError, WorkerTaskError } from './worker-errors.js';
import type { TaskReply } from './worker-protocol.js';

export interface WorkerPoolOptions {
  /** Names the pool in errors and thread names. */
  name: string;
  /** The worker module (it calls serveWorkerTasks); see workerScript. */
  script: URL;
  /** Threads started. */
  size: number;
  /** Handed to every worker as `workerData` (its settings). */
  workerData?: unknown;
  /** Heap bounds of each worker: a page that needs more crashes its worker, not the service. */
  resourceLimits?: ResourceLimits;
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
 * CPU-bound work of a stage on worker threads: each task goes to the thread with the fewest open
 * tasks (several may queue in one thread, so none idles between messages). A thread that dies
 * fails only the tasks it held, with a retriable WorkerCrashedError, and is replaced.
 */
export class WorkerPool<In, Out> {
  private readonly members: Member[] = [];
  private nextId = 1;
  private closed = false;
  /** Threads that died and were replaced: a metric and a test hook. */
  crashes = 0;

  constructor(private readonly options: WorkerPoolOptions) {
    if (!Number.isInteger(options.size) || options.size < 1) throw new RangeError(`worker pool ${options.name}: size must be a positive integer, got ${options.size}`);
    for (let i = 0; i < options.size; i++) this.members.push(this.spawn(i));
  }

  get size(): number {
    return this.members.length;
  }

  /** Open tasks over all threads. */
  get pending(): number {
    return this.members.reduce((sum, member) => sum + member.tasks.size, 0);
  }

  run(input: In, transfer: ArrayBuffer[] = []): Promise<Out> {
    if (this.closed) return Promise.reject(new WorkerPoolClosedError(this.options.name));
    let member = this.members[0]!;
    for (const candidate of this.members) if (candidate.tasks.size < member.tasks.size) member = candidate;
    const id = this.nextId++;
    return new Promise<Out>((resolve, reject) => {
      member.tasks.set(id, { resolve: resolve as (value: never) => void, reject });
      member.worker.postMessage({ id, input }, transfer);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const members = this.members.splice(0);
    for (const member of members) this.failAll(member, new WorkerPoolClosedError(this.options.name));
    await Promise.all(members.map((member) => member.worker.terminate()));
  }

  private spawn(slot: number): Member {
    const worker = new Worker(this.options.script, { workerData: this.options.workerData, resourceLimits: this.options.resourceLimits, name: `${this.options.name}-${slot}`, execArgv: builtModulesOnly(process.execArgv) });
    const member: Member = { worker, tasks: new Map() };
    worker.unref();
    worker.on('message', (reply: TaskReply<Out>) => {
      const task = member.tasks.get(reply.id);
      if (!task) return;
      member.tasks.delete(reply.id);
      if (reply.ok) task.resolve(reply.value as never);
      else task.reject(new WorkerTaskError(reply.failure));
    });
    let failure: unknown = null;
    worker.on('error', (error) => (failure = error));
    worker.on('exit', (exitCode) => {
      if (this.closed) return;
      this.crashes++;
      const cause = failure ?? new Error(`exit code ${exitCode}`);
      this.failAll(member, new WorkerCrashedError(`worker ${this.options.name}-${slot} stopped: ${cause instanceof Error ? cause.message : String(cause)}`, { cause }));
      const index = this.members.indexOf(member);
      if (index >= 0) this.members[index] = this.spawn(slot);
    });
    return member;
  }

  private failAll(member: Member, error: unknown): void {
    const tasks = [...member.tasks.values()];
    member.tasks.clear();
    for (const task of tasks) task.reject(error);
  }
}

/**
 * The parent's Node flags without resolution conditions: under the test runner they select the
 * workspace's TypeScript sources, which a worker thread cannot load (it runs the built modules).
 */
export function builtModulesOnly(execArgv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i]!;
    if (arg === '--conditions' || arg === '-C') i++;
    else if (!arg.startsWith('--conditions=') && !arg.startsWith('-C=')) kept.push(arg);
  }
  return kept;
}
