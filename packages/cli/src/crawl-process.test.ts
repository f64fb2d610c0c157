import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from '@crawler/core/testing';
import { startTestWeb, type TestWeb } from '@crawler/testweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));

interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** The crawler as a real process; `limitBlocks` caps the size of every file it writes (ulimit -f, 512-byte blocks in sh). */
function crawler(args: string[], options: { limitBlocks?: number; uid?: number } = {}) {
  const command = options.limitBlocks
    ? spawn('sh', ['-c', `ulimit -f ${options.limitBlocks} && exec "$0" "$@"`, process.execPath, main, ...args])
    : spawn(process.execPath, [main, ...args], options.uid === undefined ? {} : { uid: options.uid, gid: options.uid });
  const started = performance.now();
  let stdout = '';
  let stderr = '';
  command.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  command.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const finished = new Promise<Finished>((resolve) =>
    command.on('close', (code, signal) => resolve({ code, signal, stdout, stderr, ms: performance.now() - started })),
  );
  return { process: command as ChildProcess, finished };
}

/** The result, or a failure after `ms` with the process killed: a test never waits on a hung crawl. */
async function within(run: ReturnType<typeof crawler>, ms: number): Promise<Finished> {
  const timer = setTimeout(() => run.process.kill('SIGKILL'), ms);
  const result = await run.finished;
  clearTimeout(timer);
  if (result.signal === 'SIGKILL') throw new Error(`the crawler did not end within ${ms} ms: ${result.stderr}`);
  return result;
}

describe('the crawler as a process', () => {
  let web: TestWeb;
  beforeAll(async () => {
    if (!existsSync(main)) throw new Error('packages/cli/dist/main.js is missing: run npm run build first');
    web = await startTestWeb({ profile: 'bench', hosts: 2, pagesPerHost: 400 });
  });
  afterAll(() => web.close());

  const crawlArgs = (out: string, ...flags: string[]) => [
    'run',
    ...web.seeds.flatMap((seed) => ['--seed', seed]),
    '--allow-address',
    '127.0.0.1',
    '--quiet',
    '--out',
    out,
    ...flags,
  ];

  it('whose files cannot grow (a full disk) stops within seconds with one line naming the file and the error', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'crawl-process-')), 'out');
    // 32 KiB per file: crawl.log, the link base journal and the WARC file all reach it within a few pages.
    const result = await within(
      crawler(crawlArgs(out, '--delay-ms', '0', '--per-host', '4'), { limitBlocks: 64 }),
      45_000,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(
        `^crawler: cannot write [^\\n]*${out}[^\\n]*: EFBIG: file too large, write \\[CRAWL_WRITE_FAILED\\]\\n$`,
      ),
    );
    expect(result.ms).toBeLessThan(30_000);
  }, 60_000);

  it.each(['SIGINT', 'SIGTERM'] as const)(
    'ends on %s within seconds, with the summary of what it did',
    async (signal) => {
      const out = join(mkdtempSync(join(tmpdir(), 'crawl-process-')), 'out');
      const run = crawler(crawlArgs(out, '--delay-ms', '200'));
      // Under way: WARC data written.
      await waitFor(
        () => existsSync(join(out, 'warc')) && readdirSync(join(out, 'warc')).some((name) => name.endsWith('.warc.gz')),
        20_000,
      );
      const sent = performance.now();
      run.process.kill(signal);
      const result = await within(run, 30_000);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/^Crawl stopped \(interrupted\)/);
      expect(performance.now() - sent).toBeLessThan(15_000);
    },
    60_000,
  );

  it('an --out it may not write to is one line naming --out, exit 2', async () => {
    const root = mkdtempSync(join(tmpdir(), 'crawl-process-'));
    chmodSync(root, 0o755);
    const locked = join(root, 'locked');
    mkdirSync(locked, { mode: 0o555 });
    chmodSync(locked, 0o555);
    // Root may write anywhere: it runs the crawler as nobody; anyone else is refused by the mode alone.
    const uid = process.getuid?.() === 0 ? 65534 : undefined;
    const result = await within(crawler(crawlArgs(locked), { uid }), 20_000);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(
        `^crawler run: --out ${locked}: cannot write there: EACCES: permission denied, open '${locked}/[^']+'\\n$`,
      ),
    );
    expect(statSync(locked).isDirectory()).toBe(true);
  });
});
