import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { registerCleanup } from './abort-cleanup.js';

export interface TestWebProcess {
  hosts: { name: string; origin: string }[];
  seeds: string[];
  pages: string[];
  pid: number;
  /** Requests the server received per canonical URL since the last reset (robots.txt included). */
  requestCounts(): Promise<Map<string, number>>;
  resetRequests(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The test web in its own process (`test-web-server.ts`), so the server's CPU is not charged to
 * what is measured and both sides get a core on a two-core machine.
 */
export async function startTestWebProcess(args: string[]): Promise<TestWebProcess> {
  const main = fileURLToPath(new URL('./test-web-server.js', import.meta.url));
  const scratch = join(tmpdir(), `bench-web-${process.pid}-${Date.now()}`);
  const truthFile = `${scratch}-truth.json`;
  const child: ChildProcess = spawn(process.execPath, [main, ...args, '--truth', truthFile], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const unregister = registerCleanup(() => child.kill('SIGTERM'));
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`test web exited with ${code}`))),
  );
  exited.catch(unregister);
  // Commands are answered in order, one line each, so one reader at a time suffices.
  const nextLine = async () =>
    JSON.parse(((await Promise.race([lines.next(), exited])) as IteratorResult<string>).value as string) as Record<
      string,
      unknown
    >;
  const announced = (await nextLine()) as unknown as { hosts: { name: string; origin: string }[]; seeds: string[] };
  const truth = JSON.parse(readFileSync(truthFile, 'utf8')) as { pages: string[] };
  rmSync(truthFile, { force: true });
  let chain: Promise<unknown> = Promise.resolve();
  const command = <T>(line: string, read: () => T): Promise<T> => {
    const result = chain.then(async () => {
      child.stdin!.write(`${line}\n`);
      await nextLine();
      return read();
    });
    chain = result.catch(() => undefined);
    return result;
  };
  return {
    ...announced,
    pages: truth.pages,
    pid: child.pid!,
    requestCounts: () => {
      const file = `${scratch}-requests.json`;
      return command(`requests ${file}`, () => {
        const counts = new Map(Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>));
        rmSync(file, { force: true });
        return counts;
      });
    },
    resetRequests: () => command('reset', () => undefined),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
