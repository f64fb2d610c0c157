import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Codec, parseCrawlJob, silentLogger, Topics, type StageContext } from '@crawler/core';
import { InProcessBus, MemoryFingerprintStore } from '@crawler/embedded';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFetcherConfig } from './config.js';
import { createFetcherService } from './fetcher-service.js';
import { frontierRequest } from './render/render-test-kit.js';

describe('createFetcherService', () => {
  let server: Server;
  let origin: string;
  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/feed.xml') response.setHeader('content-type', 'application/rss+xml').end('<rss/>');
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** The topic the fetcher publishes the feed on, wired for a job that reads feeds or not. */
  async function feedTo(feeds: boolean): Promise<string[]> {
    const bus = new InProcessBus();
    const service = createFetcherService(
      loadFetcherConfig({ env: {}, overrides: { allowAddresses: ['127.0.0.1'], minDelayMs: 0, obeyRobots: false } }),
      parseCrawlJob({ id: 'job', extraction: { feeds } }),
      { bus, producer: bus.producer(), codec: new Codec(), state: new MemoryFingerprintStore() },
      silentLogger(),
    );
    try {
      const emissions = await service.stage.handle(frontierRequest(`${origin}/feed.xml`), {} as StageContext);
      return emissions.map((emission) =>
        `${emission.topic} ${(emission.value as { outcome?: string }).outcome ?? ''}`.trim(),
      );
    } finally {
      await service.stop();
      await bus.close();
    }
  }

  it('adds the content types the crawl job extracts to FETCHER_CONTENT_TYPES', async () => {
    expect(await feedTo(true)).toEqual([Topics.fetched]);
    expect(await feedTo(false)).toEqual([`${Topics.status} unsupported_type`]);
  });
});
