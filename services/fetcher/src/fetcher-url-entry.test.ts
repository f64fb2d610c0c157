import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { silentLogger, type Outlinks, type StageContext } from '@crawler/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFetcherConfig } from './config.js';
import { createFetcherParts, type FetcherParts } from './fetcher-service.js';
import { createFetcherStage } from './fetcher-stage.js';
import { fetchUrl, type FetchUrlOutcome } from './fetch-url.js';
import { frontierRequest } from './render/render-test-kit.js';

/** Location headers as sites write them: with fragments, empty or not. */
const LOCATIONS: Record<string, string> = {
  '/moved': '/target#',
  '/moved-far': 'http://localhost/target#top',
  '/self': '/self#',
};

// URLs that enter the crawl through the fetcher: Location headers and robots.txt Sitemap lines.
describe('fetcher URL entry points', () => {
  let server: Server;
  let origin: string;
  const requested: string[] = [];
  const opened: FetcherParts[] = [];
  const fetcher = (maxRedirects: number) => {
    const parts = createFetcherParts(
      loadFetcherConfig({ env: {}, overrides: { allowAddresses: ['127.0.0.1'], minDelayMs: 0, maxRedirects } }),
      null,
      silentLogger(),
    );
    opened.push(parts);
    return (path: string): Promise<FetchUrlOutcome> =>
      fetchUrl(parts.deps, { url: `${origin}${path}`, jobId: 'test', etag: null, lastModified: null });
  };

  beforeAll(async () => {
    server = createServer((request, response) => {
      requested.push(request.url ?? '');
      const location = LOCATIONS[request.url ?? ''];
      if (location) response.writeHead(301, { location }).end();
      else if (request.url === '/robots.txt')
        response.end(
          `Sitemap: ${origin}/sitemap.xml#\nSitemap: ${origin.toUpperCase()}/sitemap.xml\nSitemap: ${origin}/news.xml#top\n`,
        );
      else if (request.url === '/target') response.setHeader('content-type', 'text/html').end('<p>target</p>');
      else response.writeHead(404).end();
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

  it('hands the scheduler a Location without its fragment, empty or not', async () => {
    const fetch = fetcher(0);
    expect(await fetch('/moved')).toMatchObject({
      kind: 'status',
      outcome: 'redirect',
      redirectTo: `${origin}/target`,
    });
    expect(await fetch('/moved-far')).toMatchObject({ outcome: 'redirect', redirectTo: 'http://localhost/target' });
    expect((await fetch('/moved')).hops).toEqual([
      { url: `${origin}/moved`, status: 301, location: `${origin}/target` },
    ]);
  });

  it('follows a fragment Location inline to the page itself, and knows a redirect to its own URL plus `#` as a loop', async () => {
    const fetch = fetcher(3);
    expect(await fetch('/moved')).toMatchObject({ kind: 'page', finalUrl: `${origin}/target` });
    expect(await fetch('/self')).toMatchObject({
      kind: 'status',
      outcome: 'redirect_loop',
      errorCode: 'REDIRECT_LOOP',
    });
    expect(requested.filter((path) => path === '/self')).toHaveLength(1);
  });

  // In robots.txt a `#` starts a comment (RFC 9309), so a Sitemap line never keeps a fragment.
  it('hands the Sitemap lines of robots.txt on canonical, once each', async () => {
    const parts = createFetcherParts(
      loadFetcherConfig({ env: {}, overrides: { allowAddresses: ['127.0.0.1'], minDelayMs: 0 } }),
      null,
      silentLogger(),
    );
    opened.push(parts);
    const stage = createFetcherStage({ deps: parts.deps, bodyCompression: 'gzip', metrics: parts.metrics });
    const emissions = await stage.handle(frontierRequest(`${origin}/target`), {} as StageContext);
    const links = emissions.find((emission) => emission.topic === 'crawl.links')!.value as Outlinks;
    expect(links.links.map((link) => link.url)).toEqual([`${origin}/sitemap.xml`, `${origin}/news.xml`]);
  });
});
