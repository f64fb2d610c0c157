import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '../error-codes.js';
import { WorkerCrashedError, WorkerPoolClosedError, WorkerTaskError } from './worker-errors.js';
import { WorkerPool, type WorkerPoolOptions } from './worker-pool.js';

type Task =
  | { op: 'echo'; value: number; ms?: number }
  | { op: 'refuse' | 'throw'; message: string }
  | { op: 'exit' }
  | { op: 'sum'; bytes: Uint8Array }
  | { op: 'bytes'; length: number };
interface Echo {
  value: number;
  threadId: number;
  setting: string | null;
}

const script = new URL('./fixtures/task-worker.mjs', import.meta.url);
const pools: WorkerPool<Task, unknown>[] = [];
function pool(size: number, extra: Partial<WorkerPoolOptions> = {}): WorkerPool<Task, unknown> {
  const created = new WorkerPool<Task, unknown>({ name: 'test', script, size, ...extra });
  pools.push(created);
  return created;
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((created) => created.close()));
});

describe('WorkerPool', () => {
  it('answers every task with its own result though they finish out of order, over at most size threads, each given the settings', async () => {
    const workers = pool(2, { workerData: { setting: 'from-pool' } });
    expect(workers.threads).toBe(0);
    const delays = [60, 0, 40, 5, 30, 0, 10, 0];
    const results = (await Promise.all(delays.map((ms, value) => workers.run({ op: 'echo', value, ms })))) as Echo[];
    expect(results.map((result) => result.value)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(new Set(results.map((result) => result.threadId)).size).toBe(2);
    expect(results.every((result) => result.setting === 'from-pool')).toBe(true);
    expect(workers.threads).toBe(2);
    expect(workers.pending).toBe(0);
  });

  it('starts a second thread only when the first is busy', async () => {
    const workers = pool(4);
    for (const value of [1, 2, 3]) expect(await workers.run({ op: 'echo', value })).toMatchObject({ value });
    expect(workers.threads).toBe(1);
  });

  it("rethrows a task's error with its code and retriable flag, and the thread serves on", async () => {
    const workers = pool(1);
    const refused = await workers.run({ op: 'refuse', message: 'bad limit' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(WorkerTaskError);
    expect(refused).toMatchObject({
      code: ErrorCode.CRAWLER_CONFIG_INVALID,
      retriable: false,
      originalName: 'ConfigError',
      message: 'bad limit',
    });
    const thrown = await workers.run({ op: 'throw', message: 'no such thing' }).catch((error: unknown) => error);
    expect(thrown).toMatchObject({ code: ErrorCode.UNEXPECTED, retriable: true, originalName: 'TypeError' });
    expect(await workers.run({ op: 'echo', value: 5 })).toMatchObject({ value: 5 });
    expect(workers.crashes).toBe(0);
  });

  it('fails only the task a dying thread held, as retriable, not those waiting behind it, and a fresh thread takes its place', async () => {
    const workers = pool(1);
    const [before, dying, after] = [
      workers.run({ op: 'echo', value: 1 }),
      workers.run({ op: 'exit' }),
      workers.run({ op: 'echo', value: 2 }),
    ].map((task) => task.catch((error: unknown) => error));
    const failed = await dying;
    expect(failed).toBeInstanceOf(WorkerCrashedError);
    expect(failed).toMatchObject({ code: ErrorCode.WORKER_CRASHED, retriable: true, reason: 'exit code 3' });
    expect((failed as Error).message).toBe('worker test-0 stopped: exit code 3');
    const [first, second] = (await Promise.all([before, after])) as Echo[];
    expect([first!.value, second!.value]).toEqual([1, 2]);
    expect(second!.threadId).not.toBe(first!.threadId);
    expect(workers.crashes).toBe(1);
    expect(workers.threads).toBe(1);
  });

  it('keeps serving on the other threads while one dies', async () => {
    const workers = pool(2);
    const slow = workers.run({ op: 'echo', value: 1, ms: 200 }) as Promise<Echo>;
    await expect(workers.run({ op: 'exit' })).rejects.toBeInstanceOf(WorkerCrashedError);
    expect(workers.threads).toBe(1);
    expect((await slow).value).toBe(1);
    const after = (await Promise.all(
      [2, 3, 4, 5].map((value) => workers.run({ op: 'echo', value, ms: 20 })),
    )) as Echo[];
    expect(after.map((result) => result.value)).toEqual([2, 3, 4, 5]);
    expect(workers.threads).toBe(2);
    expect(new Set(after.map((result) => result.threadId)).size).toBe(2);
  });

  it('moves the buffers named for transfer both ways instead of copying them', async () => {
    const workers = pool(1);
    const bytes = new Uint8Array([1, 2, 3, 4]);
    expect(await workers.run({ op: 'sum', bytes }, [bytes.buffer])).toEqual({ sum: 10, length: 4 });
    expect(bytes.byteLength).toBe(0);
    const made = (await workers.run({ op: 'bytes', length: 1024 })) as Uint8Array;
    expect(made.length).toBe(1024);
    expect(made.every((byte) => byte === 7)).toBe(true);
  });

  it('on close lets open and waiting tasks finish within the drain time, then refuses new ones', async () => {
    const workers = pool(2);
    const open = [1, 2, 3].map((value) => workers.run({ op: 'echo', value, ms: 50 }));
    await workers.close(10_000);
    expect(((await Promise.all(open)) as Echo[]).map((result) => result.value)).toEqual([1, 2, 3]);
    await expect(workers.run({ op: 'echo', value: 3 })).rejects.toBeInstanceOf(WorkerPoolClosedError);
  });

  it('on close without a drain time fails what is open or waiting as retriable', async () => {
    const workers = pool(1);
    const open = [1, 2].map((value) => workers.run({ op: 'echo', value, ms: 5_000 }).catch((error: unknown) => error));
    await workers.close();
    for (const task of await Promise.all(open))
      expect(task).toMatchObject({ code: ErrorCode.WORKER_POOL_CLOSED, retriable: true });
    expect(workers.threads).toBe(0);
  });

  it('does not keep a process alive once its tasks are answered', () => {
    const built = new URL('../../dist/workers/worker-pool.js', import.meta.url).href;
    const code = `
      const { WorkerPool } = await import(${JSON.stringify(built)});
      const pool = new WorkerPool({ name: 'idle', script: new URL(${JSON.stringify(script.href)}), size: 2 });
      const answer = await pool.run({ op: 'echo', value: 7 });
      console.log('answered', answer.value);`;
    const child = spawnSync(process.execPath, ['--max-old-space-size=256', '--input-type=module', '-e', code], {
      encoding: 'utf8',
      cwd: fileURLToPath(new URL('.', import.meta.url)),
      timeout: 15_000,
    });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    expect(child.stdout.trim()).toBe('answered 7');
  });

  it('refuses a size that is not a positive integer', () => {
    expect(() => new WorkerPool({ name: 'bad', script, size: 0 })).toThrow(/size must be a positive integer/);
    expect(() => new WorkerPool({ name: 'bad', script, size: 1.5 })).toThrow(/size must be a positive integer/);
  });
});
