import { decodeText, silentLogger } from '@crawler/core';
import { MemoryFingerprintStore } from '@crawler/embedded';
import { BIG_BODY_BYTES, COMPRESSED_TEXT, EDGE_CHARSET_PAGES, startTestWeb, type TestWeb } from '@crawler/testweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFetcherConfig, OWN_SITE_BUDGET } from './config.js';
import { createFetcherParts, type FetcherParts } from './fetcher-service.js';
import { fetchUrl, type FetchUrlOutcome } from './fetch-url.js';

const settings = {
  allowAddresses: ['127.0.0.1'],
  minDelayMs: 0,
  ...OWN_SITE_BUDGET,
  perHostConcurrency: 4,
  totalTimeoutMs: 5000,
  delayFactor: 0,
  maxRetryAfterMs: 10,
  maxBodyBytes: 1024 * 1024,
};

describe('fetchUrl on the edge test web', () => {
  let web: TestWeb;
  const opened: FetcherParts[] = [];
  const at = (name: string, path: string) => `${web.hosts.find((host) => host.name === name)!.origin}${path}`;
  const fetcher = (overrides: Record<string, unknown> = {}) => {
    const parts = createFetcherParts(
      loadFetcherConfig({ env: {}, overrides: { ...settings, ...overrides } }),
      new MemoryFingerprintStore(),
      silentLogger(),
    );
    opened.push(parts);
    return (url: string, jobId = 'test'): Promise<FetchUrlOutcome> =>
      fetchUrl(parts.deps, { url, jobId, etag: null, lastModified: null });
  };
  let fetch: ReturnType<typeof fetcher>;

  beforeAll(async () => {
    web = await startTestWeb({ profile: 'edge' });
    fetch = fetcher();
  });
  afterAll(async () => {
    for (const parts of opened) {
      parts.gate.close();
      await parts.client.close();
    }
    await web.close();
  });

  it('decodes gzip, deflate (zlib and raw), br and stacked encodings', async () => {
    for (const path of [
      '/encoding/gzip',
      '/encoding/deflate',
      '/encoding/deflate-raw',
      '/encoding/br',
      '/encoding/gzip-br',
    ]) {
      const result = await fetch(at('http', path));
      expect(result.kind, path).toBe('page');
      expect((result as { body: Buffer }).body.toString(), path).toContain(COMPRESSED_TEXT);
    }
  });

  it('keeps no page in an encoding it did not ask for and cannot decode (zstd): a status that says so', async () => {
    const result = await fetch(at('http', '/encoding/zstd'));
    expect(result).toMatchObject({
      kind: 'status',
      outcome: 'unsupported_type',
      httpStatus: 200,
      retriable: false,
      errorCode: 'CONTENT_ENCODING_UNSUPPORTED',
    });
    expect((result as { errorMessage: string }).errorMessage).toMatch(
      /^Content-Encoding zstd was not asked for \(Accept-Encoding: gzip, deflate, br\)/,
    );
  });

  it('keeps a page cut at the size cap and flags it, also for a gzip bomb, and refuses a cut PDF as too large', async () => {
    for (const path of ['/big', '/gzip-bomb']) {
      const result = await fetch(at('http', path));
      expect(result, path).toMatchObject({ kind: 'page', truncated: true });
      expect((result as { body: Buffer }).body.length, path).toBe(settings.maxBodyBytes);
    }
    const withPdf = fetcher({ contentTypes: ['text/html', 'application/pdf'] });
    expect(await withPdf(at('http', '/big.pdf'))).toMatchObject({
      kind: 'status',
      outcome: 'too_large',
      errorCode: 'BODY_TOO_LARGE',
    });
    expect(BIG_BODY_BYTES).toBeGreaterThan(settings.maxBodyBytes);
    expect(await withPdf(at('http', '/small.pdf'))).toMatchObject({
      kind: 'page',
      contentType: 'application/pdf',
      charset: null,
    });
    expect(await fetch(at('http', '/small.pdf'))).toMatchObject({ kind: 'status', outcome: 'unsupported_type' });
  });

  it('admits configured types by family, feeds included', async () => {
    expect(await fetcher({ contentTypes: ['text/html', 'application/*'] })(at('http', '/feed.xml'))).toMatchObject({
      kind: 'page',
      contentType: 'application/rss+xml',
    });
  });

  it('believes the bytes over a lying or missing Content-Type', async () => {
    expect(await fetch(at('http', '/lies/pdf-as-html'))).toMatchObject({
      kind: 'status',
      outcome: 'unsupported_type',
      errorMessage: expect.stringContaining('sniffed; the header said text/html'),
    });
    expect(await fetch(at('http', '/lies/png-as-html'))).toMatchObject({ outcome: 'unsupported_type' });
    expect(await fetch(at('http', '/lies/html-as-octet-stream'))).toMatchObject({
      kind: 'page',
      contentType: 'text/html',
      sniffed: true,
    });
    expect(await fetch(at('http', '/lies/no-type'))).toMatchObject({
      kind: 'page',
      contentType: 'text/html',
      sniffed: true,
    });
  });

  it('gives every status its outcome class', async () => {
    expect(await fetch(at('http', '/status/401'))).toMatchObject({
      outcome: 'denied',
      httpStatus: 401,
      retriable: false,
    });
    expect(await fetch(at('http', '/status/403'))).toMatchObject({ outcome: 'denied', httpStatus: 403 });
    expect(await fetch(at('http', '/status/410'))).toMatchObject({ outcome: 'gone', httpStatus: 410 });
    expect(await fetch(at('http', '/status/418'))).toMatchObject({ outcome: 'client_error', httpStatus: 418 });
    expect(await fetch(at('http', '/status/500'))).toMatchObject({ outcome: 'server_error', retriable: true });
    expect(await fetch(at('http', '/status/302-without-location'))).toMatchObject({
      outcome: 'client_error',
      errorCode: 'REDIRECT_WITHOUT_LOCATION',
    });
    const dated = await fetch(at('http', '/busy/date'));
    expect(dated).toMatchObject({ outcome: 'server_error', httpStatus: 503 });
    expect((dated as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(1000);
    expect(await fetch('http://127.0.0.1:1/')).toMatchObject({ outcome: 'connection_refused', retriable: true });
  });

  it('keeps site operators’ robots.txt failures apart from their pages', async () => {
    const before = web.requests.count(at('robots-error', '/'));
    expect(await fetch(at('robots-error', '/'))).toMatchObject({
      kind: 'status',
      outcome: 'server_error',
      httpStatus: 503,
      retriable: true,
      errorCode: 'ROBOTS_UNAVAILABLE',
    });
    expect(web.requests.count(at('robots-error', '/'))).toBe(before);
    expect(await fetch(at('robots-denied', '/anything'))).toMatchObject({ kind: 'page' });
    expect(await fetch(at('robots-redirect', '/blocked'))).toMatchObject({ outcome: 'blocked_robots' });
    expect(web.requests.count(at('robots-redirect', '/blocked'))).toBe(0);
  });

  it('sends cookies back to their site only for jobs that opted in', async () => {
    const withCookies = fetcher({ cookieJobs: ['shop'], maxRedirects: 3 });
    expect(await withCookies(at('http', '/cookies/start'), 'shop')).toMatchObject({
      kind: 'page',
      hops: [{ status: 302 }, { status: 200 }],
    });
    expect(await withCookies(at('http', '/cookies/start'), 'news')).toMatchObject({
      kind: 'status',
      outcome: 'denied',
      httpStatus: 403,
    });
    expect(await fetcher({ maxRedirects: 3 })(at('http', '/cookies/start'), 'shop')).toMatchObject({
      outcome: 'denied',
    });
  });

  it('chooses the charset of each edge charset page so that its text decodes', async () => {
    const sources = {
      none: 'detected',
      header: 'header',
      meta: 'meta',
      'http-equiv': 'meta',
      bom: 'bom',
      'xml-declaration': 'xml-declaration',
    } as const;
    for (const page of EDGE_CHARSET_PAGES) {
      const result = await fetch(at('http', page.path));
      expect(result.kind, page.path).toBe('page');
      if (result.kind !== 'page') continue;
      expect(result.charsetSource, page.path).toBe(sources[page.declared]);
      expect(decodeText(result.body, result.charset).text, page.path).toContain(page.sampleText);
    }
  });
});
