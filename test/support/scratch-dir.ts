import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Set to keep service logs and scratch files of the stack tests for a look afterwards. */
export const KEEP_TEST_FILES = 'CRAWLER_KEEP_TEST_FILES';

/** A fresh folder under the system temp dir for one test's logs and files. */
export function createScratchDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `${prefix}-`));
}

/** Removes a scratch folder, unless CRAWLER_KEEP_TEST_FILES is set: then says where it stays. */
export function removeScratchDir(dir: string | undefined, env: NodeJS.ProcessEnv = process.env): void {
  if (!dir) return;
  if (env[KEEP_TEST_FILES]) {
    process.stderr.write(`kept ${dir} (${KEEP_TEST_FILES} is set)\n`);
    return;
  }
  rmSync(dir, { recursive: true, force: true });
}
