import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError, loadRuntimeConfig, silentLogger } from '@crawler/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeFetcher } from './compose-fetcher.js';
import { loadFetcherConfig } from './config.js';
import { createFetcherParts } from './fetcher-service.js';
import { fetchUrl } from './fetch-url.js';

const AGENT = 'uatestbot/2.3 (+https://bot.example.test/about)';

describe('User-Agent', () => {
  let server: Server;
  let origin: string;
  /** Path and User-Agent of every request the site saw. */
  const seen: { path: string; agent: string | undefined }[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push({ path: request.url ?? '', agent: request.headers['user-agent'] });
      if (request.url === '/robots.txt') response.end('User-agent: *\nAllow: /\n');
      else response.setHeader('content-type', 'text/html').end('<p>page</p>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends the configured User-Agent, contact URL included, with robots.txt and page requests', async () => {
    const config = loadFetcherConfig({
      env: { FETCHER_USER_AGENT: AGENT, FETCHER_ALLOW_ADDRESSES: '127.0.0.1', FETCHER_MIN_DELAY_MS: '0' },
    });
    const parts = createFetcherParts(config, null, silentLogger());
    try {
      expect(
        await fetchUrl(parts.deps, { url: `${origin}/page`, jobId: 'test', etag: null, lastModified: null }),
      ).toMatchObject({ kind: 'page' });
    } finally {
      parts.gate.close();
      await parts.client.close();
    }
    expect(seen).toEqual([
      { path: '/robots.txt', agent: AGENT },
      { path: '/page', agent: AGENT },
    ]);
  });

  it('refuses a User-Agent without a contact URL, naming the setting, and the fetcher does not start', async () => {
    const env = { FETCHER_USER_AGENT: 'uatestbot/2.3' };
    expect(() => loadFetcherConfig({ env })).toThrow(ConfigError);
    expect(() => loadFetcherConfig({ env })).toThrow(
      /invalid setting FETCHER_USER_AGENT \(userAgent\) = "uatestbot\/2.3": must contain a contact URL/,
    );
    // Embedded ports: should the settings ever be read after connecting, nothing outside this process is reached.
    const runtime = loadRuntimeConfig({ env: { CRAWLER_BUS: 'embedded', CRAWLER_FINGERPRINTS: 'memory' } });
    await expect(composeFetcher(runtime, silentLogger(), env)).rejects.toMatchObject({
      code: 'CRAWLER_CONFIG_INVALID',
      message: expect.stringContaining('FETCHER_USER_AGENT'),
    });
  });
});
