import { silentLogger, type FingerprintStore } from '@crawler/core';
import { createRedisFingerprintStore } from '@crawler/redis';
import { deleteKeysWithPrefix, localRedisConfig } from '@crawler/redis/testing';
import { startTestWeb, type TestWeb } from '@crawler/testweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFetcherConfig, OWN_SITE_BUDGET } from './config.js';
import { createFetcherParts, type FetcherParts } from './fetcher-service.js';
import { fetchUrl } from './fetch-url.js';
import type { QueueMode } from './politeness/queue-key.js';

const DELAY_MS = 300;
/** Timer jitter between a fetcher's slot (on the Redis server's clock) and the test web's log. */
const TOLERANCE_MS = 60;

describe.each(['standalone', 'cluster'] as const)('two fetchers sharing Redis (%s)', (mode) => {
  const config = localRedisConfig(mode);
  let web: TestWeb;
  /** Two plain hosts on 127.0.0.1, on two ports: one address, one registrable domain. */
  let pair: TestWeb;
  const stores: FingerprintStore[] = [];
  const fetchers: FetcherParts[] = [];
  const at = (name: string, path: string) => `${web.hosts.find((host) => host.name === name)!.origin}${path}`;
  /** A fetcher process of its own: its own Redis connection, gate, robots cache and HTTP pool. */
  const fetcher = (overrides: Record<string, unknown> = {}) => {
    const store = createRedisFingerprintStore(config, silentLogger());
    stores.push(store);
    const settings = {
      allowAddresses: ['127.0.0.1'],
      minDelayMs: 0,
      ...OWN_SITE_BUDGET,
      delayFactor: 0,
      maxRetryAfterMs: 1500,
      ...overrides,
    };
    const parts = createFetcherParts(loadFetcherConfig({ env: {}, overrides: settings }), store, silentLogger());
    fetchers.push(parts);
    return (url: string) => fetchUrl(parts.deps, { url, jobId: 'test', etag: null, lastModified: null });
  };

  beforeAll(async () => {
    web = await startTestWeb({ profile: 'edge' });
    pair = await startTestWeb({ profile: 'bench', hosts: 2, pagesPerHost: 8, linksPerPage: 2 });
  });
  afterAll(async () => {
    for (const parts of fetchers) {
      parts.gate.close();
      await parts.pacing?.flush();
      await parts.client.close();
    }
    for (const store of stores) await store.close();
    await web.close();
    await pair.close();
    await deleteKeysWithPrefix(config);
  });

  it('fetch one robots.txt between them, however their lookups interleave', async () => {
    const a = fetcher();
    const b = fetcher();
    const results = await Promise.all([
      a(at('robots-odd', '/')),
      b(at('robots-odd', '/private/open')),
      a(at('robots-odd', '/late')),
      b(at('robots-odd', '/merged')),
    ]);
    expect(web.requests.count(at('robots-odd', '/robots.txt'))).toBe(1);
    expect(results.map((result) => (result.kind === 'page' ? 'page' : result.outcome))).toEqual([
      'page',
      'page',
      'page',
      'blocked_robots',
    ]);
    expect(results.filter((result) => result.sitemaps).length).toBe(1);
    // A third fetcher, started later, reads the shared copy instead of asking the site again.
    expect(await fetcher()(at('robots-odd', '/private/x'))).toMatchObject({ outcome: 'blocked_robots' });
    expect(web.requests.count(at('robots-odd', '/robots.txt'))).toBe(1);
  });

  it('share a host’s pause and back-off: the second fetcher waits out the first one’s Retry-After', async () => {
    const a = fetcher();
    const b = fetcher();
    expect(await a(at('http', '/busy/seconds'))).toMatchObject({ outcome: 'throttled', retryAfterMs: 2000 });
    const t0 = performance.now();
    expect(await b(at('http', '/'))).toMatchObject({ kind: 'page' });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(1300); // the 2 s Retry-After, capped at 1.5 s
    const queue = new URL(at('http', '/')).host;
    expect(fetchers.at(-1)!.gate.timing(queue)?.busyStreak).toBe(0);
  });

  /** Each host's page URLs, and the page requests the pair's hosts received since `since`. */
  const pagesOf = (host: 0 | 1) =>
    pair
      .groundTruth()
      .pages.filter((page) => page.startsWith(pair.hosts[host]!.origin))
      .map((page) => new URL(page));
  const pageRequestsSince = (since: number) =>
    pair.requests.entries().filter((entry) => entry.at >= since && !entry.url.endsWith('/robots.txt'));

  it.each(['ip', 'domain'] as const)(
    'space the requests of one %s queue, each fetcher crawling its own host of it',
    async (queueMode: QueueMode) => {
      const settings = { queueMode, minDelayMs: DELAY_MS, perHostConcurrency: 2 };
      const a = fetcher(settings);
      const b = fetcher(settings);
      const since = performance.timeOrigin + performance.now();
      const [first, second] = [pagesOf(0).slice(0, 3), pagesOf(1).slice(0, 3)];
      const results = await Promise.all([...first.map((url) => a(url.href)), ...second.map((url) => b(url.href))]);
      expect(results.map((result) => result.kind)).toEqual(Array(6).fill('page'));
      const times = pageRequestsSince(since)
        .map((entry) => entry.at)
        .sort((x, y) => x - y);
      expect(times).toHaveLength(6);
      const gaps = times.slice(1).map((at, i) => Math.round(at - times[i]!));
      expect(Math.min(...gaps), `gaps (ms): ${gaps.join(' ')}`).toBeGreaterThanOrEqual(DELAY_MS - TOLERANCE_MS);
    },
  );

  it('keep one registrable domain’s 10-minute budget between them, each crawling its own host of it', async () => {
    const budget = { siteMode: 'domain', siteRequestsPer10Min: 4 };
    const a = fetcher(budget);
    const b = fetcher(budget);
    const since = performance.timeOrigin + performance.now();
    const [first, second] = [pagesOf(0).slice(3, 6), pagesOf(1).slice(3, 6)];
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await a(first[i]!.href), await b(second[i]!.href));
    expect(results.map((result) => (result.kind === 'page' ? 'page' : result.errorCode))).toEqual([
      'page',
      'page',
      'page',
      'page',
      'SITE_BUDGET_SPENT',
      'SITE_BUDGET_SPENT',
    ]);
    expect(results[5]).toMatchObject({ outcome: 'throttled', retriable: true });
    expect((results[5] as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(9 * 60_000);
    expect(pageRequestsSince(since)).toHaveLength(4);
  });
});
