import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { silentLogger } from '@crawler/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressPolicy } from './address-policy.js';
import { fetchUrl, parseRetryAfter, type FetchUrlDeps } from './fetch-url.js';
import { HttpClient } from './http-client.js';
import { PolitenessGate } from './politeness-gate.js';
import { RobotsCache } from './robots/robots-cache.js';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

function listen(routes: Record<string, Handler>): Promise<{ server: Server; origin: string; hits: Map<string, number> }> {
  const hits = new Map<string, number>();
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const handler = routes[path];
    if (handler) handler(request, response);
    else {
      response.writeHead(404, { 'content-type': 'text/html' });
      response.end('<h1>not found</h1>');
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits })));
}

const html = (body: string, headers: Record<string, string> = {}): Handler => (_, response) => {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers });
  response.end(body);
};
const redirect = (status: number, location: string): Handler => (_, response) => {
  response.writeHead(status, { location });
  response.end();
};

describe('fetchUrl', () => {
  let site: Awaited<ReturnType<typeof listen>>;
  let other: Awaited<ReturnType<typeof listen>>;
  let deps: FetchUrlDeps;
  let client: HttpClient;

  beforeAll(async () => {
    other = await listen({ '/': html('<p>other host</p>') });
    site = await listen({
      '/robots.txt': (_, response) => response.end('User-agent: *\nDisallow: /private/\n'),
      '/page': html('<title>Page</title><a href="/x">x</a>'),
      '/private/secret': html('secret'),
      '/r1': redirect(301, '/r2'),
      '/r2': redirect(302, '/r3#frag'),
      '/r3': html('<p>end of chain</p>'),
      '/loop-a': redirect(307, '/loop-b'),
      '/loop-b': redirect(308, '/loop-a'),
      '/to-private': redirect(301, '/private/secret'),
      '/cross': redirect(301, `${other.origin}/`),
      '/many': redirect(302, '/many1'),
      '/many1': redirect(302, '/many2'),
      '/many2': redirect(302, '/many3'),
      '/many3': redirect(302, '/many4'),
      '/gone': (_, response) => {
        response.writeHead(410);
        response.end();
      },
      '/busy': (_, response) => {
        response.writeHead(429, { 'retry-after': '2' });
        response.end();
      },
      '/conditional': (request, response) => {
        if (request.headers['if-none-match'] === '"v1"') {
          response.writeHead(304, { etag: '"v1"' });
          response.end();
        } else html('<p>fresh</p>', { etag: '"v1"' })(request, response);
      },
      '/pdf': (_, response) => {
        response.writeHead(200, { 'content-type': 'application/pdf' });
        response.end('%PDF-1.4 ...');
      },
      '/untyped': (_, response) => response.end('<!DOCTYPE html><title>no header</title>'),
      '/big': html('<p>' + 'a'.repeat(200_000) + '</p>'),
      '/bomb': (_, response) => {
        response.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
        response.end(gzipSync(Buffer.alloc(50 * 1024 * 1024, 0x61)));
      },
      '/gzip': (_, response) => {
        response.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
        response.end(gzipSync(Buffer.from('<p>compressed</p>')));
      },
      '/drip': (_, response) => {
        response.writeHead(200, { 'content-type': 'text/html' });
        const timer = setInterval(() => response.write('x'), 50);
        response.on('close', () => clearInterval(timer));
      },
      '/sjis': (_, response) => {
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end(Buffer.concat([Buffer.from('<meta charset="Shift_JIS"><p>'), Buffer.from([0x82, 0xa0])]));
      },
    });
    client = new HttpClient({ policy: new AddressPolicy(['127.0.0.1']), userAgent: 'crawler-test/1.0 (+http://example.test)', connectTimeoutMs: 2000, headersTimeoutMs: 2000, bodyTimeoutMs: 2000, connectionsPerOrigin: 4 });
    deps = {
      client,
      gate: new PolitenessGate({ globalConcurrency: 10, perQueueConcurrency: 4, minDelayMs: 0 }),
      robots: new RobotsCache({ client, productToken: 'crawler', ttlMs: 60_000, errorTtlMs: 1000, timeoutMs: 2000, logger: silentLogger() }),
      contentTypes: new Set(['text/html']),
      maxBodyBytes: 100_000,
      maxRedirects: 3,
      maxCrawlDelayMs: 1000,
      maxRetryAfterMs: 10,
      totalTimeoutMs: 1500,
    };
  });
  afterAll(async () => {
    await client.close();
    site.server.closeAllConnections();
    other.server.closeAllConnections();
    await new Promise((resolve) => site.server.close(resolve));
    await new Promise((resolve) => other.server.close(resolve));
  });

  const get = (path: string, extra: { etag?: string } = {}) => fetchUrl(deps, { url: `${site.origin}${path}`, queueKey: new URL(site.origin).host, etag: extra.etag ?? null, lastModified: null });

  it('fetches a page with its status, type, charset and one hop', async () => {
    const result = await get('/page');
    expect(result).toMatchObject({ kind: 'page', httpStatus: 200, contentType: 'text/html', charset: 'utf-8', charsetSource: 'header', truncated: false });
    expect(result.hops).toEqual([{ url: `${site.origin}/page`, status: 200, location: null }]);
  });

  it('follows a same-host chain hop by hop, recording every hop', async () => {
    const result = await get('/r1');
    expect(result.kind).toBe('page');
    expect(result.kind === 'page' && result.finalUrl).toBe(`${site.origin}/r3`);
    expect(result.hops.map((hop) => hop.status)).toEqual([301, 302, 200]);
    expect(result.hops[1]!.location).toBe(`${site.origin}/r3`);
  });

  it('hands a redirect to the scheduler when inline following is off (the default)', async () => {
    expect(await fetchUrl({ ...deps, maxRedirects: 0 }, { url: `${site.origin}/r1`, queueKey: new URL(site.origin).host, etag: null, lastModified: null })).toMatchObject({ kind: 'status', outcome: 'redirect', httpStatus: 301, redirectTo: `${site.origin}/r2` });
  });

  it('detects inline loops, hands over past the hop budget, and robots-checks every hop', async () => {
    expect(await get('/loop-a')).toMatchObject({ kind: 'status', outcome: 'redirect_loop' });
    expect(await get('/many')).toMatchObject({ kind: 'status', outcome: 'redirect', redirectTo: `${site.origin}/many4` });
    expect(site.hits.get('/many4')).toBeUndefined();
    expect(await get('/to-private')).toMatchObject({ kind: 'status', outcome: 'blocked_robots', errorCode: 'ROBOTS_DISALLOWED' });
    expect(site.hits.get('/private/secret')).toBeUndefined();
  });

  it('hands a redirect to another host back instead of following it', async () => {
    expect(await get('/cross')).toMatchObject({ kind: 'status', outcome: 'redirect', redirectTo: `${other.origin}/`, httpStatus: 301 });
    expect(other.hits.get('/')).toBeUndefined();
  });

  it('refuses robots-disallowed URLs without requesting them', async () => {
    expect(await get('/private/secret')).toMatchObject({ outcome: 'blocked_robots' });
    expect(site.hits.get('/private/secret')).toBeUndefined();
  });

  it('classifies 404/410 as gone and 429 as throttled with Retry-After', async () => {
    expect(await get('/gone')).toMatchObject({ outcome: 'gone', httpStatus: 410, retriable: false });
    expect(await get('/nowhere')).toMatchObject({ outcome: 'gone', httpStatus: 404 });
    expect(await get('/busy')).toMatchObject({ outcome: 'throttled', httpStatus: 429, retriable: true, retryAfterMs: 2000 });
  });

  it('sends validators and reports 304 as not_modified', async () => {
    expect(await get('/conditional')).toMatchObject({ kind: 'page' });
    expect(await get('/conditional', { etag: '"v1"' })).toMatchObject({ kind: 'status', outcome: 'not_modified', httpStatus: 304, etag: '"v1"' });
  });

  it('refuses content types outside the allow list and sniffs a missing type', async () => {
    expect(await get('/pdf')).toMatchObject({ outcome: 'unsupported_type', errorCode: 'CONTENT_TYPE_REFUSED' });
    expect(await get('/untyped')).toMatchObject({ kind: 'page', contentType: 'text/html' });
  });

  it('truncates bodies over the cap and flags them, also for a gzip bomb', async () => {
    const big = await get('/big');
    expect(big.kind === 'page' && big.body.length).toBe(100_000);
    expect(big.kind === 'page' && big.truncated).toBe(true);
    const bomb = await get('/bomb');
    expect(bomb.kind === 'page' && bomb.body.length).toBe(100_000);
    expect(bomb.kind === 'page' && bomb.truncated).toBe(true);
    const gz = await get('/gzip');
    expect(gz.kind === 'page' && gz.body.toString()).toBe('<p>compressed</p>');
  });

  it('bounds a slow-drip body by the total deadline', async () => {
    const started = Date.now();
    expect(await get('/drip')).toMatchObject({ kind: 'status', outcome: 'timeout', retriable: true });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('takes the charset from a meta declaration', async () => {
    const result = await get('/sjis');
    expect(result).toMatchObject({ kind: 'page', charset: 'shift_jis', charsetSource: 'meta' });
  });

  it('reports refused connections and blocked addresses as outcomes', async () => {
    const closed = await fetchUrl(deps, { url: 'http://127.0.0.1:1/', queueKey: '127.0.0.1:1', etag: null, lastModified: null });
    expect(closed).toMatchObject({ kind: 'status', retriable: true });
    expect(['connection_refused', 'server_error']).toContain((closed as { outcome: string }).outcome);
    const strict = { ...deps, client: new HttpClient({ policy: new AddressPolicy([]), userAgent: 'x', connectTimeoutMs: 500, headersTimeoutMs: 500, bodyTimeoutMs: 500, connectionsPerOrigin: 1 }), robots: null };
    expect(await fetchUrl(strict, { url: `${site.origin}/page`, queueKey: 'x', etag: null, lastModified: null })).toMatchObject({ outcome: 'blocked_address', errorCode: 'BLOCKED_ADDRESS' });
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
