import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { silentLogger } from '@crawler/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Resolver } from '../address-policy.js';
import { loadFetcherConfig, OWN_SITE_BUDGET } from '../config.js';
import { createFetcherParts, type FetcherParts } from '../fetcher-service.js';
import { fetchUrl } from '../fetch-url.js';
import { parseRetryAfter } from './polite-request.js';

/** Names under .site.test resolve to loopback; anything else does not resolve. */
const stub: Resolver = async (hostname) => {
  if (!hostname.endsWith('.site.test'))
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return [{ address: '127.0.0.1', family: 4 }];
};

describe('the polite path every request takes', () => {
  let server: Server;
  let origin: string;
  const seen: string[] = [];
  const opened: FetcherParts[] = [];
  const partsWith = (overrides: Record<string, unknown> = {}) => {
    const config = loadFetcherConfig({
      env: {},
      overrides: { allowAddresses: ['127.0.0.1'], minDelayMs: 0, ...OWN_SITE_BUDGET, delayFactor: 0, ...overrides },
    });
    const parts = createFetcherParts(config, null, silentLogger(), { resolver: stub });
    opened.push(parts);
    return parts;
  };

  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push(`${request.headers.host}${request.url}`);
      if (request.url === '/robots.txt')
        response.end(`User-agent: *\nDisallow: /private\nSitemap: ${origin}/map.xml\n`);
      else if (request.url === '/busy') response.writeHead(429, { 'retry-after': '60' }).end();
      else response.setHeader('content-type', 'text/html').end('<p>page</p>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const parts of opened) {
      parts.gate.close();
      await parts.client.close();
    }
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('judges the address before anything is sent, robots.txt included', async () => {
    const parts = partsWith();
    const port = new URL(origin).port;
    const before = seen.length;
    const turn = await parts.polite.take(new URL(`http://nowhere.test:${port}/page`));
    expect(turn).toMatchObject({ kind: 'refused', refusal: { reason: 'unreachable' } });
    // The plain fetch reports the name, not an unavailable robots.txt, and no robots.txt record is kept for it.
    expect(
      await fetchUrl(parts.deps, {
        url: `http://nowhere.test:${port}/page`,
        jobId: 'j',
        etag: null,
        lastModified: null,
      }),
    ).toMatchObject({ outcome: 'dns_failure', errorCode: 'ENOTFOUND' });
    expect(seen.length).toBe(before);
    expect(parts.robots!.misses).toBe(0);
  });

  it('reads robots.txt once, hands its sitemaps on, and refuses what it disallows', async () => {
    const parts = partsWith();
    const first = await parts.polite.take(new URL(`${origin}/open`));
    if (first.kind !== 'go') throw new Error('expected a turn');
    first.request.answered(200, {});
    expect(first.sitemaps).toEqual([`${origin}/map.xml`]);
    const refused = await parts.polite.take(new URL(`${origin}/private/x`));
    expect(refused).toMatchObject({ kind: 'refused', refusal: { reason: 'blocked_robots' }, sitemaps: null });
  });

  // The drift this module removed: the render path never asked for admission, so a sub-request to a
  // queue held for a minute by a 429 waited until its page's time ran out, holding a browser page.
  it('refuses a front request at once when its queue is paused past the time it can wait', async () => {
    const parts = partsWith({ obeyRobots: false, maxRetryAfterMs: 60_000 });
    expect(
      await fetchUrl(parts.deps, { url: `${origin}/busy`, jobId: 'j', etag: null, lastModified: null }),
    ).toMatchObject({ outcome: 'throttled', retryAfterMs: 60_000 });
    const t0 = performance.now();
    const front = await parts.polite.take(new URL(`${origin}/script.js`), { front: true, maxWaitMs: 15_000 });
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(front).toMatchObject({ kind: 'refused', refusal: { reason: 'queue_full' } });
    expect((front as { refusal: { retryAfterMs: number } }).refusal.retryAfterMs).toBeGreaterThan(55_000);
    // An ordinary URL may wait that long (under FETCHER_MAX_QUEUE_WAIT_MS): it is admitted and waits its turn.
    expect(parts.gate.admit(new URL(origin).host)).toEqual({ admitted: true });
  });

  it('lets a front request past a full queue of waiting URLs', async () => {
    const parts = partsWith({ obeyRobots: false, minDelayMs: 500, queueWaitingMax: 1 });
    const queue = new URL(origin).host;
    const held = await parts.gate.acquire(queue);
    const waiting = parts.gate.acquire(queue);
    expect(parts.gate.admit(queue)).toMatchObject({ admitted: false });
    const front = parts.polite.take(new URL(`${origin}/frame`), { front: true, maxWaitMs: 5000 });
    held.release({ signal: 'answered', durationMs: 1 });
    const turn = await front;
    expect(turn.kind).toBe('go');
    if (turn.kind === 'go') turn.request.answered(200, {});
    (await waiting).release();
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('120')).toBe(120_000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(10_000);
    expect(parseRetryAfter('soon')).toBeNull();
    expect(parseRetryAfter(undefined)).toBeNull();
  });
});
