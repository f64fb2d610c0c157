import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpGet } from './test-support/http-get.js';
import { startTestWeb, type TestWeb } from './test-web.js';

const linkCount = (html: string) => [...html.matchAll(/<a href="/g)].length;

describe('bench profile', () => {
  let web: TestWeb;
  beforeAll(async () => {
    web = await startTestWeb({ profile: 'bench', hosts: 3, pagesPerHost: 400, pageBytes: 2048, linksPerPage: 8 });
  });
  afterAll(() => web.close());

  it('has hosts x pagesPerHost pages, all reachable, and nothing special', () => {
    const truth = web.groundTruth();
    expect(web.hosts.map((h) => h.name)).toEqual(['bench-1', 'bench-2', 'bench-3']);
    expect(truth.pages).toHaveLength(1200);
    for (const list of [
      truth.disallowed,
      truth.redirects,
      truth.errors,
      truth.flaky,
      truth.slow,
      truth.endless,
      truth.nonHtml,
      truth.charsets,
      truth.traps,
      truth.crawlDelays,
      truth.validatorHosts,
    ]) {
      expect(list).toEqual([]);
    }
    expect(truth.changeRates.every((c) => c.probability === 0)).toBe(true);
  });

  it('serves pages of about pageBytes with exactly linksPerPage links, identical on every request', async () => {
    const truth = web.groundTruth();
    for (const url of truth.pages.filter((_, i) => i % 37 === 0)) {
      const first = await httpGet(url);
      expect(first.status).toBe(200);
      expect(first.body.length).toBeGreaterThan(2048 * 0.85);
      expect(first.body.length).toBeLessThan(2048 * 1.2);
      expect(linkCount(first.body.toString())).toBe(8);
      expect((await httpGet(url)).body.equals(first.body)).toBe(true);
    }
  });

  it('allows everything in robots.txt, without a crawl delay', async () => {
    const robots = await httpGet(`${web.hosts[0]!.origin}/robots.txt`);
    expect(robots.body.toString()).toBe('User-agent: *\nAllow: /\n');
  });

  it('uses the documented defaults: 10 hosts of 1000 pages of about 4 KiB with 20 links', async () => {
    const defaults = await startTestWeb({ profile: 'bench' });
    try {
      const truth = defaults.groundTruth();
      expect(defaults.hosts).toHaveLength(10);
      expect(truth.pages).toHaveLength(10_000);
      const page = await httpGet(truth.pages[4321]!);
      expect(Math.abs(page.body.length - 4096)).toBeLessThan(4096 * 0.15);
      expect(linkCount(page.body.toString())).toBe(20);
    } finally {
      await defaults.close();
    }
  });
});
