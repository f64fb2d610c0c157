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

  async function crawl(flags: string[], options: { siteBudget?: boolean } = {}) {
    const out = mkdtempSync(join(tmpdir(), 'crawler-run-limits-'));
    dirs.push(out);
    vi.stubEnv('FETCHER_ALLOW_ADDRESSES', '127.0.0.1');
    vi.stubEnv('FETCHER_MIN_DELAY_MS', '0');
    if (!options.siteBudget) {
      vi.stubEnv('FETCHER_SITE_MEAN_INTERVAL_MS', '0');
      vi.stubEnv('FETCHER_SITE_REQUESTS_PER_10MIN', '0');
    }
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

  it("keeps the default site budget (2 s between a site's pages) unless --own-site turns it off", async () => {
    const perHost = () => {
      const hosts = new Map<string, number>();
      for (const entry of web.requests.entries()) {
        if (entry.url.endsWith('/robots.txt')) continue;
        const host = new URL(entry.url).host;
        hosts.set(host, (hosts.get(host) ?? 0) + 1);
      }
      return [...hosts.values()];
    };
    web.requests.reset();
    await crawl(['--max-time', '4s'], { siteBudget: true });
    // 4 s at 2 s apart: at most 3 page requests per site (one more for a late timer).
    expect(Math.max(...perHost())).toBeLessThanOrEqual(4);
    web.requests.reset();
    await crawl(['--max-time', '4s', '--own-site'], { siteBudget: true });
    expect(Math.max(...perHost())).toBeGreaterThan(8);
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
