import { silentLogger } from '@crawler/core';
import { MemoryFingerprintStore } from '@crawler/embedded';
import { startTestWeb, type TestWeb } from '@crawler/testweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressPolicy } from '../address-policy.js';
import { HttpClient } from '../http-client.js';
import { RobotsCache, type RobotsCacheOptions } from './robots-cache.js';
import { fetchRobots } from './robots-fetch.js';

describe('RobotsCache on the edge test web', () => {
  let web: TestWeb;
  let client: HttpClient;
  const origin = (name: string) => web.hosts.find((host) => host.name === name)!.origin;
  const url = (name: string, path: string) => new URL(`${origin(name)}${path}`);
  const robotsRequests = (name: string) =>
    web.requests
      .urls()
      .filter((u) => u.startsWith(origin(name)) && u.includes('robots'))
      .reduce((sum, u) => sum + web.requests.count(u), 0);
  const cache = (options: Partial<RobotsCacheOptions> = {}) =>
    new RobotsCache({
      client,
      productToken: 'crawler',
      ttlMs: 60_000,
      errorTtlMs: 60_000,
      staleMs: 86_400_000,
      timeoutMs: 2000,
      store: null,
      logger: silentLogger(),
      ...options,
    });

  beforeAll(async () => {
    web = await startTestWeb({ profile: 'edge' });
    client = new HttpClient({
      policy: new AddressPolicy(['127.0.0.1']),
      userAgent: 'Crawler/1.0 (+http://example.test/bot)',
      connectTimeoutMs: 2000,
      headersTimeoutMs: 2000,
      bodyTimeoutMs: 2000,
      connectionsPerOrigin: 2,
    });
  });
  afterAll(async () => {
    await client.close();
    await web.close();
  });

  it('reads an odd robots.txt as RFC 9309 says: BOM, line endings, token groups, encodings, 500 KiB', async () => {
    const robots = cache();
    const first = await robots.lookup(url('robots-odd', '/'));
    expect(first.fetched).toBe(true);
    const { policy } = first;
    const allowed = (path: string) => policy.isAllowed(url('robots-odd', path));
    expect(allowed('/')).toBe(true); // the "*" group says Disallow: /, but a group names us
    expect(allowed('/private/open')).toBe(true);
    expect(allowed('/private/open/more')).toBe(false);
    expect(allowed('/private/x')).toBe(false);
    expect(allowed('/~user/home')).toBe(false);
    expect(allowed('/%7Euser/home')).toBe(false);
    expect(allowed('/caf%C3%A9')).toBe(false);
    expect(allowed('/doc.pdf')).toBe(false);
    expect(allowed('/doc.pdf?x=1')).toBe(true);
    expect(allowed('/for-crawler/x')).toBe(true); // that group is for "crawlerbot"
    expect(allowed('/merged')).toBe(false); // a second group naming us is merged
    expect(allowed('/late')).toBe(true); // past 500 KiB
    expect(policy.crawlDelaySeconds).toBe(0.3);
    expect(policy.sitemaps).toEqual([`${origin('robots-odd')}/sitemap-a.xml`, `${origin('robots-odd')}/sitemap-b.xml`]);
    expect(await robots.lookup(url('robots-odd', '/x'))).toMatchObject({ fetched: false });
    expect(robotsRequests('robots-odd')).toBe(1);
  });

  it('follows robots.txt redirects, and treats more than five as "allow all"', async () => {
    const robots = cache();
    const redirected = await robots.policyFor(url('robots-redirect', '/'));
    expect(redirected.isAllowed(url('robots-redirect', '/blocked'))).toBe(false);
    expect(redirected.isAllowed(url('robots-redirect', '/open'))).toBe(true);
    const looping = await robots.policyFor(url('robots-loop', '/'));
    expect(looping.source).toBe('allow-all');
    expect(robotsRequests('robots-loop')).toBe(6);
  });

  it('allows everything on a 4xx and nothing on a 5xx or no answer, and says why', async () => {
    const robots = cache();
    expect((await robots.policyFor(url('robots-denied', '/anything'))).source).toBe('allow-all');
    const failing = await robots.policyFor(url('robots-error', '/'));
    expect(failing.isAllowed(url('robots-error', '/'))).toBe(false);
    expect(failing.failure).toMatchObject({ httpStatus: 503 });
    const unreachable = await robots.policyFor(new URL('http://127.0.0.1:1/page'));
    expect(unreachable.failure).toMatchObject({ httpStatus: null, error: { code: 'ECONNREFUSED' } });
  });

  it('takes a robots.txt in an encoding it cannot decode (zstd) as unavailable, not as rules', async () => {
    const { record } = await fetchRobots(client, url('http', '/encoding/zstd'), 2000);
    expect(record).toMatchObject({ kind: 'unavailable', httpStatus: 200, errorCode: 'CONTENT_ENCODING_UNSUPPORTED' });
  });

  it('tries an unavailable robots.txt again once the error TTL has passed', async () => {
    let now = 1_000_000;
    const robots = cache({ errorTtlMs: 5000, now: () => now });
    const before = robotsRequests('robots-error');
    await robots.policyFor(url('robots-error', '/'));
    await robots.policyFor(url('robots-error', '/'));
    expect(robotsRequests('robots-error')).toBe(before + 1);
    now += 5001;
    await robots.policyFor(url('robots-error', '/'));
    expect(robotsRequests('robots-error')).toBe(before + 2);
  });

  it('keeps using the last good copy while robots.txt is unavailable, within the stale limit', async () => {
    const now = Date.now();
    const storeWithExpiredCopy = async () => {
      const store = new MemoryFingerprintStore();
      const stale = {
        record: { kind: 'file', body: 'User-agent: *\nDisallow: /secret\n', fetchedAt: now - 3_600_000, finalUrl: '' },
        expiresAt: now - 1,
      };
      await store.set([
        { namespace: 'robots', key: origin('robots-error'), value: JSON.stringify(stale), ttlMs: 60_000 },
      ]);
      return store;
    };
    const policy = await cache({ store: await storeWithExpiredCopy() }).policyFor(url('robots-error', '/'));
    expect(policy.failure).toBeUndefined();
    expect(policy.isAllowed(url('robots-error', '/'))).toBe(true);
    expect(policy.isAllowed(url('robots-error', '/secret'))).toBe(false);
    const tooOld = await cache({ store: await storeWithExpiredCopy(), staleMs: 60_000 }).policyFor(
      url('robots-error', '/'),
    );
    expect(tooOld.failure).toMatchObject({ httpStatus: 503 });
  });

  it('fetches robots.txt once for two fetchers sharing a store, and once for concurrent lookups', async () => {
    const store = new MemoryFingerprintStore();
    const a = cache({ store, lockPollMs: 20 });
    const b = cache({ store, lockPollMs: 20 });
    const before = robotsRequests('robots-redirect');
    const lookups = await Promise.all([
      a.lookup(url('robots-redirect', '/')),
      b.lookup(url('robots-redirect', '/')),
      a.lookup(url('robots-redirect', '/x')),
      b.lookup(url('robots-redirect', '/y')),
    ]);
    expect(robotsRequests('robots-redirect') - before).toBe(4); // one fetch: robots.txt and its three redirect hops
    expect(lookups.filter((lookup) => lookup.fetched)).toHaveLength(1);
    for (const { policy } of lookups) expect(policy.isAllowed(url('robots-redirect', '/blocked'))).toBe(false);
  });
});
