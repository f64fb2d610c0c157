import { silentLogger } from '@crawler/core';
import { MemoryFingerprintStore } from '@crawler/embedded';
import { ONE_LINE_BYTES, startTestWeb, type TestWeb } from '@crawler/testweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFetcherConfig, OWN_SITE_BUDGET } from './config.js';
import { createFetcherParts, type FetcherParts } from './fetcher-service.js';
import { fetchUrl, type FetchUrlOutcome } from './fetch-url.js';

const settings = {
  allowAddresses: ['127.0.0.1'],
  minDelayMs: 0,
  ...OWN_SITE_BUDGET,
  perHostConcurrency: 8,
  totalTimeoutMs: 1500,
  delayFactor: 0,
  maxBodyBytes: 2 * 1024 * 1024,
};

// The hostile profile's answers, one fetch each: every one ends in bounded time with a named outcome.
describe('fetchUrl on the hostile test web', () => {
  let web: TestWeb;
  let parts: FetcherParts;
  let fetch: (path: string) => Promise<FetchUrlOutcome>;

  beforeAll(async () => {
    web = await startTestWeb({ profile: 'hostile' });
    parts = createFetcherParts(
      loadFetcherConfig({ env: {}, overrides: settings }),
      new MemoryFingerprintStore(),
      silentLogger(),
    );
    fetch = (path) =>
      fetchUrl(parts.deps, { url: `${web.hosts[0]!.origin}${path}`, jobId: 'test', etag: null, lastModified: null });
  });
  afterAll(async () => {
    parts.gate.close();
    await parts.client.close();
    await web.close();
  });

  it('ends endless and dripping answers at the deadline, as retriable timeouts', async () => {
    const started = performance.now();
    const results = await Promise.all(['/endless', '/drip/body', '/drip/headers'].map(fetch));
    for (const result of results)
      expect(result).toMatchObject({
        kind: 'status',
        outcome: 'timeout',
        retriable: true,
        errorCode: 'FETCH_DEADLINE',
      });
    expect(performance.now() - started).toBeLessThan(settings.totalTimeoutMs + 1000);
  });

  it('keeps the bomb and the 10 MiB line cut at the cap, flagged', async () => {
    for (const path of ['/gzip-bomb', '/one-line']) {
      const result = await fetch(path);
      expect(result, path).toMatchObject({ kind: 'page', truncated: true });
      expect((result as { body: Buffer }).body.length, path).toBe(settings.maxBodyBytes);
    }
    expect(ONE_LINE_BYTES).toBeGreaterThan(settings.maxBodyBytes);
  });

  it('refuses headers over 64 KiB as too large, not worth another attempt, and takes 1000 small ones', async () => {
    for (const path of ['/headers/huge-value', '/headers/set-cookie']) {
      expect(await fetch(path), path).toMatchObject({
        kind: 'status',
        outcome: 'too_large',
        retriable: false,
        errorCode: 'UND_ERR_HEADERS_OVERFLOW',
      });
    }
    expect(await fetch('/headers/many')).toMatchObject({ kind: 'page', truncated: false });
  });

  it('names a broken exchange: another protocol is final, a body cut short may pass', async () => {
    expect(await fetch('/wire/not-http')).toMatchObject({
      kind: 'status',
      outcome: 'network_error',
      retriable: false,
      errorCode: 'HTTP_PARSE_ERROR',
    });
    expect(await fetch('/wire/short-body')).toMatchObject({
      kind: 'status',
      outcome: 'network_error',
      retriable: true,
      errorCode: 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
    });
  });

  it('hands redirects to the scheduler, stops one to itself, and refuses a Location that is no URL', async () => {
    expect(await fetch('/loop/a')).toMatchObject({
      kind: 'status',
      outcome: 'redirect',
      redirectTo: `${web.hosts[0]!.origin}/loop/b`,
    });
    expect(await fetch('/loop/self')).toMatchObject({
      kind: 'status',
      outcome: 'redirect_loop',
      retriable: false,
      errorCode: 'REDIRECT_LOOP',
    });
    expect(await fetch('/redirect/malformed')).toMatchObject({
      kind: 'status',
      outcome: 'invalid_url',
      retriable: false,
      errorCode: 'REDIRECT_INVALID',
    });
  });

  it('takes invalid and mixed UTF-8 as pages, declared UTF-8 where they say so', async () => {
    expect(await fetch('/utf8/invalid')).toMatchObject({ kind: 'page', charset: 'utf-8', charsetSource: 'header' });
    expect(await fetch('/utf8/mixed')).toMatchObject({ kind: 'page', charset: 'utf-8', charsetSource: 'header' });
    expect(await fetch('/utf8/mixed-undeclared')).toMatchObject({ kind: 'page', charsetSource: 'detected' });
  });
});
