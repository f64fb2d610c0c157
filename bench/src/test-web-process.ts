import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export interface TestWebProcess {
  hosts: { name: string; origin: string }[];
  seeds: string[];
  pages: string[];
  pid: number;
  stop(): Promise<void>;
}

/**
 * The test web in its own process, so the server's CPU is not charged to what is measured and
 * both sides get a core on a two-core machine.
 */
export async function startTestWebProcess(args: string[]): Promise<TestWebProcess> {
  const main = fileURLToPath(new URL('./main.js', import.meta.resolve('@crawler/testweb')));
  const truthFile = join(tmpdir(), `bench-truth-${process.pid}-${Date.now()}.json`);
  const child: ChildProcess = spawn(process.execPath, [main, ...args, '--truth', truthFile], { stdio: ['pipe', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`test web exited with ${code} before announcing itself`)));
  });
  const announced = JSON.parse(line) as { hosts: { name: string; origin: string }[]; seeds: string[] };
  const truth = JSON.parse(readFileSync(truthFile, 'utf8')) as { pages: string[] };
  return {
    ...announced,
    pages: truth.pages,
    pid: child.pid!,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
