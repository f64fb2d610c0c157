import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { GroundTruth } from '@crawler/testweb';

export interface RenderWebProcess {
  hosts: { name: string; origin: string }[];
  seeds: string[];
  truth: GroundTruth;
  pid: number;
  stop(): Promise<void>;
}

/**
 * The test web's render profile in its own process (the package's own `crawler-testweb` command),
 * with its whole ground truth: the server's CPU is then not charged to the renderer measured here.
 */
export async function startRenderWebProcess(seed = 1): Promise<RenderWebProcess> {
  const main = join(createRequire(import.meta.url).resolve('@crawler/testweb'), '..', 'main.js');
  const truthFile = join(tmpdir(), `render-web-${process.pid}-${Date.now()}.json`);
  const child = spawn(process.execPath, [main, '--profile', 'render', '--seed', String(seed), '--truth', truthFile], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`test web exited with ${code}`)));
  });
  const announced = JSON.parse(first) as { hosts: { name: string; origin: string }[]; seeds: string[] };
  const truth = JSON.parse(readFileSync(truthFile, 'utf8')) as GroundTruth;
  rmSync(truthFile, { force: true });
  return {
    ...announced,
    truth,
    pid: child.pid!,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
