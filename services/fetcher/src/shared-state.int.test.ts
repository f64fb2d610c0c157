import { silentLogger, type FingerprintStore } from '@crawler/core';
import { createRedisFingerprintStore } from '@crawler/redis';
import { deleteKeysWithPrefix, localRedisConfig } from '@crawler/redis/testing';
import { startTestWeb, type TestWeb } from '@crawler/testweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFetcherConfig, OWN_SITE_BUDGET } from './config.js';
import { createFetcherParts, type FetcherParts } from './fetcher-service.js';
import { fetchUrl } from './fetch-url.js';

describe.each(['standalone', 'cluster'] as const)('two fetchers sharing Redis (%s)', (mode) => {
  const config = localRedisConfig(mode);
  let web: TestWeb;
  const stores: FingerprintStore[] = [];
  const fetchers: FetcherParts[] = [];
  const at = (name: string, path: string) => `${web.hosts.find((host) => host.name === name)!.origin}${path}`;
  /** A fetcher process of its own: its own Redis connection, gate, robots cache and HTTP pool. */
  const fetcher = () => {
    const store = createRedisFingerprintStore(config, silentLogger());
    stores.push(store);
    const settings = {
      allowAddresses: ['127.0.0.1'],
      minDelayMs: 0,
      ...OWN_SITE_BUDGET,
      delayFactor: 0,
      maxRetryAfterMs: 1500,
    };
    const parts = createFetcherParts(loadFetcherConfig({ env: {}, overrides: settings }), store, silentLogger());
    fetchers.push(parts);
    return (url: string) => fetchUrl(parts.deps, { url, jobId: 'test', etag: null, lastModified: null });
  };

  beforeAll(async () => {
    web = await startTestWeb({ profile: 'edge' });
  });
  afterAll(async () => {
    for (const parts of fetchers) {
      parts.gate.close();
      await parts.pacing?.flush();
      await parts.client.close();
    }
    for (const store of stores) await store.close();
    await web.close();
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
});
