import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../reliability/support/stack-env.js';

const main = join(repoRoot, 'packages/cli/dist/main.js');

/** As `crawler demo` crawls the test web: no delays, short timeouts for its slow and endless pages, quick retries. */
export const TEST_WEB_ENV = {
  FETCHER_ALLOW_ADDRESSES: '127.0.0.1',
  FETCHER_MIN_DELAY_MS: '0',
  FETCHER_DELAY_FACTOR: '0',
  FETCHER_PER_HOST_CONCURRENCY: '4',
  FETCHER_CONCURRENCY: '32',
  FETCHER_TOTAL_TIMEOUT_MS: '2500',
  FETCHER_HEADERS_TIMEOUT_MS: '2500',
  FETCHER_BODY_TIMEOUT_MS: '2000',
  SCHEDULER_RETRY_BASE_MS: '300',
  SCHEDULER_RETRY_MAX_MS: '2000',
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
