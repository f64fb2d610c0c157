import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { silentLogger } from '@crawler/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFetcherConfig } from '../config.js';
import { createFetcherParts, type FetcherParts } from '../fetcher-service.js';
import { fetchUrl } from '../fetch-url.js';

/** A fixed clock: the gate's next allowed time is read, never waited for. */
const NOW = 1_000_000;

describe('Crawl-delay from robots.txt', () => {
  let server: Server;
  let origin: string;
  const opened: FetcherParts[] = [];

  /** Fetches one page with FETCHER_MAX_CRAWL_DELAY_MS = cap and returns how long its queue is then held. */
  const spacingAfterOneFetch = async (cap: number) => {
    const config = loadFetcherConfig({
      env: {},
      overrides: { allowAddresses: ['127.0.0.1'], minDelayMs: 0, delayFactor: 0, maxCrawlDelayMs: cap },
    });
    const parts = createFetcherParts(config, null, silentLogger(), { now: () => NOW });
    opened.push(parts);
    expect(
      await fetchUrl(parts.deps, { url: `${origin}/page`, jobId: 'test', etag: null, lastModified: null }),
    ).toMatchObject({ kind: 'page' });
    return parts.gate.timing(new URL(origin).host)!.nextAt - NOW;
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
