import { silentLogger } from '@crawler/core';
import { MemoryFingerprintStore } from '@crawler/embedded';
import { startTestWeb, type TestWeb } from '@crawler/testweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Resolver } from '../address-policy.js';
import { loadFetcherConfig, OWN_SITE_BUDGET } from '../config.js';
import { createFetcherParts, type FetcherParts } from '../fetcher-service.js';
import { fetchUrl } from '../fetch-url.js';

/** Two sites of one registrable domain, both served by the test web on loopback. */
const stub: Resolver = async (hostname) => {
  if (!hostname.endsWith('.shop.example.co.uk'))
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return [{ address: '127.0.0.1', family: 4 }];
};

describe('politeness with real requests on the edge test web', () => {
  let web: TestWeb;
  const opened: FetcherParts[] = [];
  const origin = (name: string) => web.hosts.find((host) => host.name === name)!.origin;
  const fetcher = (overrides: Record<string, unknown>) => {
    const config = loadFetcherConfig({
      env: {},
      overrides: {
        allowAddresses: ['127.0.0.1'],
        delayFactor: 0,
        minDelayMs: 0,
        ...OWN_SITE_BUDGET,
        obeyRobots: false,
        ...overrides,
      },
    });
    const parts = createFetcherParts(config, new MemoryFingerprintStore(), silentLogger(), { resolver: stub });
    opened.push(parts);
    return {
      parts,
      fetch: (url: string) => fetchUrl(parts.deps, { url, jobId: 'test', etag: null, lastModified: null }),
    };
  };
  /** Milliseconds between the end of the first fetch and the end of the second. */
  const gap = async (fetch: (url: string) => Promise<unknown>, first: string, second: string) => {
    await fetch(first);
    const t0 = performance.now();
    await fetch(second);
    return performance.now() - t0;
  };

  beforeAll(async () => {
    web = await startTestWeb({ profile: 'edge' });
  });
  afterAll(async () => {
    for (const parts of opened) {
      parts.gate.close();
      await parts.client.close();
    }
    await web.close();
  });

  it('queues by host by default, by registrable domain or by resolved IP when configured', async () => {
    const port = new URL(origin('robots-denied')).port;
    const a = `http://www.shop.example.co.uk:${port}/anything`;
    const b = `http://static.shop.example.co.uk:${port}/`;
    expect(await gap(fetcher({ minDelayMs: 400 }).fetch, a, b)).toBeLessThan(300);
    expect(await gap(fetcher({ minDelayMs: 400, queueMode: 'domain' }).fetch, a, b)).toBeGreaterThanOrEqual(380);
    const byIp = fetcher({ minDelayMs: 400, queueMode: 'ip' });
    expect(await gap(byIp.fetch, `${origin('http')}/`, `${origin('robots-denied')}/`)).toBeGreaterThanOrEqual(380);
    expect(byIp.parts.gate.timing('ip:127.0.0.1')).not.toBeNull();
  });

  it('waits longer after a slow answer, and as long as Retry-After says (up to its cap)', async () => {
    const adaptive = fetcher({ delayFactor: 1 });
    expect(await gap(adaptive.fetch, `${origin('http')}/slow-answer`, `${origin('http')}/`)).toBeGreaterThanOrEqual(
      280,
    );
    const busy = fetcher({ maxRetryAfterMs: 700 });
    expect(await busy.fetch(`${origin('http')}/busy/seconds`)).toMatchObject({
      outcome: 'throttled',
      retryAfterMs: 2000,
    });
    const t0 = performance.now();
    await busy.fetch(`${origin('http')}/`);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(650);
  });

  it('backs off exponentially after 503s without Retry-After, and forgets it after a normal answer', async () => {
    const { parts, fetch } = fetcher({ backoffBaseMs: 100 });
    const queue = new URL(origin('http')).host;
    const holds: number[] = [];
    for (let i = 0; i < 3; i++) {
      await fetch(`${origin('http')}/busy/no-retry-after`);
      holds.push(parts.gate.timing(queue)!.nextAt - Date.now());
    }
    expect(holds[1]! / holds[0]!).toBeGreaterThan(1.6);
    expect(holds[2]! / holds[1]!).toBeGreaterThan(1.6);
    await fetch(`${origin('http')}/`);
    expect(parts.gate.timing(queue)!.busyStreak).toBe(0);
  });

  it('hands a URL back when its queue is full rather than holding a slot for minutes', async () => {
    const { fetch } = fetcher({ minDelayMs: 2000, queueWaitingMax: 1 });
    const url = (n: number) => `${origin('http')}${['/', '/chain/end', '/encoding/gzip'][n]}`;
    await fetch(url(0));
    const waiting = fetch(url(1));
    const refused = await fetch(url(2));
    expect(refused).toMatchObject({
      kind: 'status',
      outcome: 'throttled',
      retriable: true,
      errorCode: 'FETCHER_QUEUE_FULL',
      httpStatus: null,
    });
    expect((refused as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(1000);
    expect(web.requests.count(url(2))).toBe(0);
    expect(await waiting).toMatchObject({ kind: 'page' });
  });
});
