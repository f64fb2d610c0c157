import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { silentLogger } from '@crawler/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFetcherConfig } from '../config.js';
import { createFetcherParts, type FetcherParts } from '../fetcher-service.js';
import { fetchUrl } from '../fetch-url.js';
import { PolitenessGate } from './politeness-gate.js';

/** A fixed clock: the gate's next allowed time is read, never waited for. */
const NOW = 1_000_000;

describe('Crawl-delay from robots.txt', () => {
  let server: Server;
  let origin: string;
  const opened: FetcherParts[] = [];
  const gates: PolitenessGate[] = [];

  /** Fetches one page with FETCHER_MAX_CRAWL_DELAY_MS = cap and returns how long its queue is then held. */
  const spacingAfterOneFetch = async (cap: number) => {
    const config = loadFetcherConfig({
      env: {},
      overrides: { allowAddresses: ['127.0.0.1'], minDelayMs: 0, delayFactor: 0, maxCrawlDelayMs: cap },
    });
    const parts = createFetcherParts(config, null, silentLogger());
    opened.push(parts);
    const slowDown = { delayFactor: 0, backoffBaseMs: 1000, maxBackoffMs: 300_000, maxRetryAfterMs: 120_000 };
    const gate = new PolitenessGate({
      globalConcurrency: 4,
      perQueueConcurrency: 1,
      minDelayMs: 0,
      slowDown,
      maxWaitingPerQueue: 10,
      maxQueueWaitMs: 600_000,
      now: () => NOW,
    });
    gates.push(gate);
    expect(
      await fetchUrl({ ...parts.deps, gate }, { url: `${origin}/page`, jobId: 'test', etag: null, lastModified: null }),
    ).toMatchObject({ kind: 'page' });
    return gate.timing(new URL(origin).host)!.nextAt - NOW;
  };

  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/robots.txt') response.end('User-agent: *\nCrawl-delay: 60\nAllow: /\n');
      else response.setHeader('content-type', 'text/html').end('<p>page</p>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const gate of gates) gate.close();
    for (const parts of opened) {
      parts.gate.close();
      await parts.client.close();
    }
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('spaces a site’s requests by its Crawl-delay, but never by more than FETCHER_MAX_CRAWL_DELAY_MS', async () => {
    expect(await spacingAfterOneFetch(5_000)).toBe(5_000);
    expect(await spacingAfterOneFetch(120_000)).toBe(60_000);
  });
});
