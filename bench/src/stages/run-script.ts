import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../stack/stack-env.js';

/** Runs a package's own bench script (`node packages/...`) from the repository root; resolves with its stdout. */
export function runPackageScript(
  path: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs: number,
): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [join(repoRoot, path), ...args],
      { cwd: repoRoot, env: { ...process.env, ...env }, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${path} failed: ${error.message}\n${stderr.slice(-2000)}`));
        else resolve(stdout);
      },
    );
  });
}
