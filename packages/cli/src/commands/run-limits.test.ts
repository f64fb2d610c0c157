import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestWeb, type TestWeb } from '@crawler/testweb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../cli.js';

/** `crawler run` stops at its page budget or its time limit and says which in its summary. */
describe('crawler run limits', () => {
  let web: TestWeb;
  const dirs: string[] = [];
  beforeAll(async () => {
    web = await startTestWeb({ seed: 3 });
  });
  afterAll(async () => {
    await web.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  async function crawl(flags: string[]) {
    const out = mkdtempSync(join(tmpdir(), 'crawler-run-limits-'));
    dirs.push(out);
    vi.stubEnv('FETCHER_ALLOW_ADDRESSES', '127.0.0.1');
    vi.stubEnv('FETCHER_MIN_DELAY_MS', '0');
    vi.stubEnv('FETCHER_SITE_MEAN_INTERVAL_MS', '0');
    vi.stubEnv('FETCHER_SITE_REQUESTS_PER_10MIN', '0');
    // The slow host's endless page, handed out before the budget ran out, must not hold the stop for the default deadline.
    vi.stubEnv('FETCHER_TOTAL_TIMEOUT_MS', '2500');
    vi.stubEnv('FETCHER_HEADERS_TIMEOUT_MS', '2500');
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const code = await runCli([
      'run',
      ...web.seeds.flatMap((seed) => ['--seed', seed]),
      '--quiet',
      '--out',
      out,
      ...flags,
    ]);
    return {
      code,
      summary: JSON.parse(readFileSync(join(out, 'crawl-summary.json'), 'utf8')) as {
        stopReason: string;
        pagesFetched: number;
        requestsAnswered: number;
      },
    };
  }

  it('stops handing out URLs at --max-pages', async () => {
    const { code, summary } = await crawl(['--max-pages', '25']);
    expect(code).toBe(0);
    expect(summary.stopReason).toBe('page budget reached');
    expect(summary.requestsAnswered).toBeLessThanOrEqual(25);
    expect(summary.pagesFetched).toBeGreaterThan(0);
  }, 60_000);

  it('stops at --max-time with what it has', async () => {
    const started = Date.now();
    const { code, summary } = await crawl(['--max-time', '2s']);
    expect(code).toBe(0);
    expect(summary.stopReason).toBe('time limit');
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(summary.pagesFetched).toBeGreaterThan(0);
  }, 60_000);
});
