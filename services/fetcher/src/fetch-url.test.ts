import { canonicalUrl, decodeText, silentLogger } from '@crawler/core';
import { MemoryFingerprintStore } from '@crawler/embedded';
import { startTestWeb, type GroundTruth, type TestWeb } from '@crawler/testweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFetcherConfig, OWN_SITE_BUDGET } from './config.js';
import { createFetcherParts, type FetcherParts } from './fetcher-service.js';
import { fetchUrl, type FetchUrlOutcome } from './fetch-url.js';

/** Settings for our own loopback site: admitted address, no politeness pauses worth waiting for. */
const testWebSettings = {
  allowAddresses: ['127.0.0.1'],
  minDelayMs: 0,
  ...OWN_SITE_BUDGET,
  perHostConcurrency: 4,
  concurrency: 32,
  totalTimeoutMs: 2500,
  headersTimeoutMs: 2500,
  bodyTimeoutMs: 2000,
  delayFactor: 0,
  backoffBaseMs: 10,
  maxRetryAfterMs: 10,
  maxCrawlDelayMs: 10,
};

describe('fetchUrl on the full test web', () => {
  let web: TestWeb;
  let truth: GroundTruth;
  let parts: FetcherParts;
  const fetch = (
    url: string,
    extra: { etag?: string; lastModified?: string; maxRedirects?: number } = {},
  ): Promise<FetchUrlOutcome> =>
    fetchUrl(
      { ...parts.deps, maxRedirects: extra.maxRedirects ?? 0 },
      { url, jobId: 'test', etag: extra.etag ?? null, lastModified: extra.lastModified ?? null },
    );

  beforeAll(async () => {
    web = await startTestWeb({ seed: 4 });
    truth = web.groundTruth();
    parts = createFetcherParts(
      loadFetcherConfig({ env: {}, overrides: testWebSettings }),
      new MemoryFingerprintStore(),
      silentLogger(),
    );
  });
  afterAll(async () => {
    parts.gate.close();
    await parts.client.close();
    await web.close();
  });

  it('fetches pages with status, type, charset and one hop', async () => {
    const url = truth.pages.find((page) => page.endsWith('/about'))!;
    const result = await fetch(url);
    expect(result).toMatchObject({
      kind: 'page',
      httpStatus: 200,
      contentType: 'text/html',
      charset: 'utf-8',
      charsetSource: 'header',
      truncated: false,
      sniffed: false,
    });
    expect(result.hops).toEqual([{ url, status: 200, location: null }]);
  });

  it('never requests a URL robots.txt disallows, and says which rule did', async () => {
    for (const url of truth.disallowed) {
      const result = await fetch(url);
      expect(result, url).toMatchObject({
        kind: 'status',
        outcome: 'blocked_robots',
        errorCode: 'ROBOTS_DISALLOWED',
        retriable: false,
      });
      expect((result as { errorMessage: string }).errorMessage).toMatch(/line \d+/);
      expect(web.requests.count(url), url).toBe(0);
    }
  });

  it('hands every HTTP redirect to the scheduler by default, with its target', async () => {
    for (const { from, to, status } of truth.redirects.filter((redirect) => redirect.status !== 'meta-refresh')) {
      expect(await fetch(from), from).toMatchObject({
        kind: 'status',
        outcome: 'redirect',
        httpStatus: status,
        redirectTo: canonicalUrl(to),
      });
    }
  });

  it('follows a same-host chain inline when allowed, recording every hop, and detects loops', async () => {
    const chainStart = truth.redirects.find((redirect) => redirect.from.endsWith('/r/1'))!.from;
    const result = await fetch(chainStart, { maxRedirects: 5 });
    expect(result.kind).toBe('page');
    expect(result.hops.map((hop) => hop.status)).toEqual([301, 302, 307, 200]);
    expect(truth.pages).toContain((result as { finalUrl: string }).finalUrl);
    expect(await fetch(chainStart, { maxRedirects: 2 })).toMatchObject({
      kind: 'status',
      outcome: 'redirect',
      hops: [{ status: 301 }, { status: 302 }, { status: 307 }],
    });
    for (const url of truth.redirectLoops.filter((loop) => new URL(loop).host === new URL(chainStart).host)) {
      expect(await fetch(url, { maxRedirects: 5 }), url).toMatchObject({
        kind: 'status',
        outcome: 'redirect_loop',
        errorCode: 'REDIRECT_LOOP',
      });
    }
    const cross = truth.redirects.find(
      (redirect) => redirect.status !== 'meta-refresh' && new URL(redirect.from).host !== new URL(redirect.to).host,
    )!;
    expect(await fetch(cross.from, { maxRedirects: 5 })).toMatchObject({
      outcome: 'redirect',
      redirectTo: canonicalUrl(cross.to),
    });
    expect(web.requests.count(cross.to)).toBe(0);
  });

  it('classifies the error statuses: 404/410 gone, 429 throttled with Retry-After, 5xx retriable', async () => {
    const expected: Record<number, { outcome: string; retriable: boolean }> = {
      404: { outcome: 'gone', retriable: false },
      410: { outcome: 'gone', retriable: false },
      429: { outcome: 'throttled', retriable: true },
      500: { outcome: 'server_error', retriable: true },
      503: { outcome: 'server_error', retriable: true },
    };
    for (const { url, status } of truth.errors) {
      const result = await fetch(url);
      expect(result, url).toMatchObject({ kind: 'status', httpStatus: status, ...expected[status] });
      if (status === 429) expect(result).toMatchObject({ retryAfterMs: 1000 });
    }
  });

  it('gets flaky pages once their failures are spent', async () => {
    for (const { url, failures, status } of truth.flaky) {
      for (let i = 0; i < failures; i++)
        expect(await fetch(url), url).toMatchObject({ kind: 'status', httpStatus: status, retriable: true });
      expect(await fetch(url), url).toMatchObject({ kind: 'page', httpStatus: 200 });
    }
  });

  it('sends the stored validators and reports 304 as not_modified, without a body', async () => {
    const page = truth.pages.find((url) => truth.validatorHosts.some((origin) => url.startsWith(`${origin}/`)))!;
    const first = await fetch(page);
    expect(first.kind).toBe('page');
    const { etag, 'last-modified': lastModified } = (first as { headers: Record<string, string> }).headers;
    expect(etag && lastModified).toBeTruthy();
    expect(await fetch(page, { etag })).toMatchObject({
      kind: 'status',
      outcome: 'not_modified',
      httpStatus: 304,
      etag,
    });
    expect(await fetch(page, { lastModified })).toMatchObject({
      kind: 'status',
      outcome: 'not_modified',
      httpStatus: 304,
    });
    // The page carries the request it answered, validators included: an archive's request record.
    const stale = await fetch(page, { etag: '"stale"' });
    expect(stale).toMatchObject({ kind: 'page' });
    expect((stale as { requestHeaders: Record<string, string> }).requestHeaders).toMatchObject({
      'user-agent': expect.stringMatching(/\S/),
      accept: expect.stringContaining('text/html'),
      'accept-encoding': expect.stringContaining('gzip'),
      'if-none-match': '"stale"',
    });
  });

  it('refuses types outside the allow list, bounds the endless page and waits for the slow one', async () => {
    for (const { url } of truth.nonHtml)
      expect(await fetch(url), url).toMatchObject({
        kind: 'status',
        outcome: 'unsupported_type',
        errorCode: 'CONTENT_TYPE_REFUSED',
      });
    for (const url of truth.endless)
      expect(await fetch(url), url).toMatchObject({ kind: 'status', outcome: 'timeout', retriable: true });
    for (const { url } of truth.slow) expect(await fetch(url), url).toMatchObject({ kind: 'page' });
  });

  it('chooses the charset of every legacy page so that its text decodes, and says how', async () => {
    const sources = { header: 'header', meta: 'meta', none: 'detected' } as const;
    for (const { url, declared, sampleText } of truth.charsets) {
      const result = await fetch(url);
      expect(result.kind, url).toBe('page');
      if (result.kind !== 'page') continue;
      expect(result.charsetSource, url).toBe(sources[declared]);
      expect(decodeText(result.body, result.charset).text, url).toContain(sampleText);
    }
  });

  it('hands over the Sitemap lines of each robots.txt once, with the lookup that fetched it', async () => {
    const fresh = createFetcherParts(
      loadFetcherConfig({ env: {}, overrides: testWebSettings }),
      new MemoryFingerprintStore(),
      silentLogger(),
    );
    const handed = new Set<string>();
    for (const host of web.hosts) {
      for (let i = 0; i < 2; i++) {
        const result = await fetchUrl(fresh.deps, {
          url: `${host.origin}/`,
          jobId: 'test',
          etag: null,
          lastModified: null,
        });
        for (const url of result.sitemaps?.urls ?? []) {
          expect(handed.has(url), url).toBe(false);
          handed.add(url);
        }
      }
    }
    expect([...handed].sort()).toEqual([...truth.sitemaps].sort());
    fresh.gate.close();
    await fresh.client.close();
  });
});
