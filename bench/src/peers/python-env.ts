import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const benchDir = new URL('../../', import.meta.url).pathname;
export const pythonDir = join(benchDir, 'python');

/**
 * A virtual environment in bench/.venv with the pinned requirements (Scrapy), created with
 * `python3 -m venv` on first use and again whenever requirements.txt changes. Returns its python.
 */
export function ensurePythonEnv(python = process.env.PYTHON ?? 'python3'): {
  python: string;
  installedSeconds: number;
} {
  const venv = join(benchDir, '.venv');
  const requirements = join(pythonDir, 'requirements.txt');
  const stamp = join(venv, '.requirements.sha1');
  const wanted = createHash('sha1').update(readFileSync(requirements)).digest('hex');
  const venvPython = join(venv, 'bin', 'python');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) return { python: venvPython, installedSeconds: 0 };
  const started = performance.now();
  if (!existsSync(venvPython)) execFileSync(python, ['-m', 'venv', venv], { stdio: 'inherit' });
  execFileSync(venvPython, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '-r', requirements], {
    stdio: 'inherit',
  });
  writeFileSync(stamp, wanted);
  return { python: venvPython, installedSeconds: (performance.now() - started) / 1000 };
}
