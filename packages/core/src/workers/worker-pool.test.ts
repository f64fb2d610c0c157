import { afterEach, describe, expect, it } from 'vitest';
import { WorkerCrashedError, WorkerPoolClosedError, WorkerTaskError } from './worker-errors.js';
import { builtModulesOnly, WorkerPool } from './worker-pool.js';
import { workerScript } from './worker-script.js';

type Task = { op: 'echo'; value: number; ms?: number } | { op: 'throw'; code: string; message: string } | { op: 'exit' } | { op: 'oom' } | { op: 'bytes'; length: number };
interface Echo {
  value: number;
  threadId: number;
  setting: string | null;
}

const script = new URL('./fixtures/task-worker.mjs', import.meta.url);
const pools: WorkerPool<Task, unknown>[] = [];
function pool(size: number, extra: Partial<ConstructorParameters<typeof WorkerPool>[0]> = {}): WorkerPool<Task, unknown> {
  const created = new WorkerPool<Task, unknown>({ name: 'test', script, size, ...extra });
  pools.push(created);
  return created;
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((created) => created.close()));
});

describe('WorkerPool', () => {
  it('answers every task with its own result, spread over the threads, each thread given the pool settings', async () => {
    const workers = pool(2, { workerData: { setting: 'from-pool' } });
    const results = (await Promise.all(Array.from({ length: 8 }, (_, value) => workers.run({ op: 'echo', value, ms: 20 })))) as Echo[];
    expect(results.map((result) => result.value)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(new Set(results.map((result) => result.threadId)).size).toBe(2);
    expect(results.every((result) => result.setting === 'from-pool')).toBe(true);
    expect(workers.pending).toBe(0);
  });

  it('rethrows a task error with its code and retriable flag, and the thread keeps serving', async () => {
    const workers = pool(1);
    const failed = await workers.run({ op: 'throw', code: 'PARSE_BROKEN', message: 'no body' }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(WorkerTaskError);
    expect(failed).toMatchObject({ code: 'PARSE_BROKEN', retriable: false, originalName: 'ParseFailure' });
    expect((failed as Error).message).toBe('no body');
    expect(await workers.run({ op: 'echo', value: 5 })).toMatchObject({ value: 5 });
    expect(workers.crashes).toBe(0);
  });

  it('fails only the tasks of a thread that dies, replaces it, and serves on', async () => {
    const workers = pool(2);
    const slow = workers.run({ op: 'echo', value: 1, ms: 300 });
    const dying = workers.run({ op: 'exit' });
    await expect(dying).rejects.toBeInstanceOf(WorkerCrashedError);
    await expect(dying).rejects.toMatchObject({ code: 'WORKER_CRASHED', retriable: true });
    expect(await slow).toMatchObject({ value: 1 });
    expect(workers.crashes).toBe(1);
    expect(workers.size).toBe(2);
    const after = (await Promise.all([1, 2, 3, 4].map((value) => workers.run({ op: 'echo', value, ms: 10 })))) as Echo[];
    expect(after.map((result) => result.value)).toEqual([1, 2, 3, 4]);
  });

  it('turns a thread out of memory into a crash of its task, within the heap bound given', async () => {
    const workers = pool(1, { resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 } });
    const failed = await workers.run({ op: 'oom' }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(WorkerCrashedError);
    expect(String((failed as Error).message)).toMatch(/memory/i);
    expect(await workers.run({ op: 'echo', value: 9 })).toMatchObject({ value: 9 });
  });

  it('moves buffers the worker names for transfer', async () => {
    const bytes = (await pool(1).run({ op: 'bytes', length: 1024 })) as Uint8Array;
    expect(bytes.length).toBe(1024);
    expect(bytes.every((byte) => byte === 7)).toBe(true);
  });

  it('rejects open and later tasks once closed', async () => {
    const workers = pool(1);
    const open = workers.run({ op: 'echo', value: 1, ms: 1000 }).catch((error: unknown) => error);
    await workers.close();
    expect(await open).toBeInstanceOf(WorkerPoolClosedError);
    await expect(workers.run({ op: 'echo', value: 2 })).rejects.toMatchObject({ code: 'WORKER_POOL_CLOSED' });
  });

  it('refuses a size that is not a positive integer', () => {
    expect(() => new WorkerPool({ name: 'bad', script, size: 0 })).toThrow(/size must be a positive integer/);
  });
});

describe('workerScript', () => {
  it('names the built .js beside a compiled module, and the dist build for a TypeScript source', () => {
    expect(workerScript('file:///app/packages/x/dist/stage.js', 'parse-worker').href).toBe('file:///app/packages/x/dist/parse-worker.js');
    expect(() => workerScript('file:///app/packages/x/src/stage.ts', 'parse-worker')).toThrow(/\/app\/packages\/x\/dist\/parse-worker\.js is not built/);
    expect(workerScript(new URL('./worker-pool.ts', import.meta.url).href, 'worker-pool').pathname).toMatch(/packages\/core\/dist\/workers\/worker-pool\.js$/);
  });
});

describe('builtModulesOnly', () => {
  it('drops resolution conditions in both spellings and keeps every other flag', () => {
    expect(builtModulesOnly(['--require', 'x.cjs', '--conditions', '@crawler/source', '-C', 'development', '--conditions=node', '--max-old-space-size=512'])).toEqual(['--require', 'x.cjs', '--max-old-space-size=512']);
  });
});
