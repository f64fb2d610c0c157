import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalizeUrl } from './canonical-url.js';
import { httpGet } from './test-support/http-get.js';
import { startTestWeb, type TestWeb } from './test-web.js';
import type { GroundTruth } from './truth/ground-truth.js';

describe('special responses answer as the ground truth says', () => {
  let web: TestWeb;
  let truth: GroundTruth;
  beforeAll(async () => {
    web = await startTestWeb();
    truth = web.groundTruth();
  });
  afterAll(() => web.close());

  it('redirects with the listed status and a Location resolving to the listed target', async () => {
    const http = truth.redirects.filter((r) => r.status !== 'meta-refresh');
    expect(new Set(http.map((r) => r.status))).toEqual(new Set([301, 302, 307, 308]));
    for (const r of http) {
      const response = await httpGet(r.from);
      expect(response.status, r.from).toBe(r.status);
      expect(canonicalizeUrl(String(response.headers.location), r.from)).toBe(r.to);
    }
    expect(http.some((r) => new URL(r.from).origin !== new URL(r.to).origin)).toBe(true);
  });

  it('has a three-hop chain and a loop that never leaves itself', async () => {
    const next = new Map(truth.redirects.map((r) => [r.from, r.to]));
    const chainStart = truth.redirects.find((r) => r.from.endsWith('/r/1'))!.from;
    let hops = 0;
    for (let url: string | undefined = chainStart; next.has(url!); url = next.get(url!)) hops++;
    expect(hops).toBe(3);
    expect(truth.redirectLoops).toHaveLength(2);
    let url = truth.redirectLoops[0]!;
    for (let i = 0; i < 6; i++) {
      const response = await httpGet(url);
      expect([301, 302]).toContain(response.status);
      url = canonicalizeUrl(String(response.headers.location), url)!;
      expect(truth.redirectLoops).toContain(url);
    }
  });

  it('serves meta refresh pages as 200 HTML pointing at the listed target', async () => {
    const refresh = truth.redirects.find((r) => r.status === 'meta-refresh')!;
    const response = await httpGet(refresh.from);
    expect(response.status).toBe(200);
    const target = /http-equiv="refresh" content="0; url=([^"]+)"/.exec(response.body.toString())![1]!;
    expect(canonicalizeUrl(target, refresh.from)).toBe(refresh.to);
    expect(truth.pages).toContain(refresh.from);
  });

  it('answers the listed error statuses on every request, 429 with Retry-After', async () => {
    expect(new Set(truth.errors.map((e) => e.status))).toEqual(new Set([404, 410, 429, 500, 503]));
    for (const e of truth.errors) {
      for (let i = 0; i < 2; i++) {
        const response = await httpGet(e.url);
        expect(response.status, e.url).toBe(e.status);
        if (e.status === 429) expect(response.headers['retry-after']).toBe('1');
      }
    }
  });

  it('fails flaky pages the listed number of times, then serves 200, and again after setRound', async () => {
    expect(truth.flaky.map((f) => [f.failures, f.status])).toEqual(
      expect.arrayContaining([
        [2, 503],
        [1, 429],
      ]),
    );
    const playThrough = async () => {
      for (const f of truth.flaky) {
        for (let i = 0; i < f.failures; i++) {
          const response = await httpGet(f.url);
          expect(response.status).toBe(f.status);
          if (f.status === 429) expect(response.headers['retry-after']).toBe('1');
        }
        expect((await httpGet(f.url)).status).toBe(200);
        expect((await httpGet(f.url)).status).toBe(200);
      }
    };
    await playThrough();
    web.setRound(0);
    await playThrough();
  });

  it('delays the slow page headers by the listed time', async () => {
    const [slow] = truth.slow;
    expect(slow!.delayMs).toBeGreaterThanOrEqual(1000);
    expect(slow!.delayMs).toBeLessThan(3000);
    const started = performance.now();
    const response = await httpGet(slow!.url);
    expect(response.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(slow!.delayMs - 20);
    expect(truth.pages).toContain(slow!.url);
  });

  it('serves the non-HTML files with their listed types and real formats', async () => {
    const types = truth.nonHtml.map((n) => n.contentType.split(';')[0]);
    expect(types).toEqual(
      expect.arrayContaining([
        'application/pdf',
        'image/png',
        'application/json',
        'text/plain',
        'application/rss+xml',
        'application/atom+xml',
      ]),
    );
    for (const file of truth.nonHtml) {
      const response = await httpGet(file.url);
      expect(response.headers['content-type']).toBe(file.contentType);
      const body = response.body;
      if (file.contentType === 'application/pdf') expect(body.subarray(0, 5).toString()).toBe('%PDF-');
      if (file.contentType === 'image/png') expect(body.subarray(1, 4).toString()).toBe('PNG');
      if (file.contentType === 'application/json')
        expect(JSON.parse(body.toString()).products.length).toBeGreaterThan(10);
    }
  });

  it('keeps the calendar trap going: every month links to a next month that exists', async () => {
    const trap = truth.traps[0]!;
    let url = `${trap.prefix}2026/11`;
    for (let i = 0; i < 30; i++) {
      const response = await httpGet(url);
      expect(response.status).toBe(200);
      const next = /<a href="([^"]+)">Next month<\/a>/.exec(response.body.toString())![1]!;
      url = canonicalizeUrl(next, url)!;
      expect(url.startsWith(trap.prefix)).toBe(true);
    }
    expect(url).toBe(`${trap.prefix}2029/05`);
    expect(truth.pages.some((p) => p.startsWith(trap.prefix))).toBe(false);
  });

  it('answers HEAD without a body and unknown paths with 404', async () => {
    const head = await httpGet(truth.pages[0]!, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect((await httpGet(`${web.hosts[0]!.origin}/no/such/page`)).status).toBe(404);
  });
});
