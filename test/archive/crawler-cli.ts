import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { TEST_WEB_CRAWL_ENV } from '../../packages/cli/src/test-support/test-web-env.js';
import { repoRoot } from '../reliability/support/stack-env.js';

const main = join(repoRoot, 'packages/cli/dist/main.js');

/** The test web crawled as `crawler demo` crawls it, the round interval short too, with an operator for the warcinfo records. */
export const TEST_WEB_ENV = {
  ...TEST_WEB_CRAWL_ENV,
  SCHEDULER_TICK_MS: '50',
  WARC_OPERATOR: 'Crawler tests <tests@example.test>',
};

/** Runs the crawler's command line to its end; rejects on a non-zero exit with what it printed. */
export function crawler(args: string[], env: Record<string, string | undefined> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [main, ...args], { env: { PATH: process.env.PATH, ...env } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`crawler ${args.join(' ')}: exit ${code}\n${output}`)),
    );
  });
}
