import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpGet } from './test-support/http-get.js';
import { startTestWeb, type TestWeb } from './test-web.js';
import type { GroundTruth } from './truth/ground-truth.js';

describe('robots.txt and sitemaps', () => {
  let web: TestWeb;
  let truth: GroundTruth;
  const origin = (name: string) => truth.hosts.find((h) => h.name === name)!.origin;
  beforeAll(async () => {
    web = await startTestWeb();
    truth = web.groundTruth();
  });
  afterAll(() => web.close());

  it('disallow folders and query patterns, with an Allow override inside a disallowed folder', async () => {
    const robots = (await httpGet(`${origin('news')}/robots.txt`)).body.toString();
    expect(robots).toContain('Disallow: /private/\nAllow: /private/press-kit');
    expect(robots).toContain('Disallow: /*?sort=');
    expect(truth.pages).toContain(`${origin('news')}/private/press-kit`);
    expect(truth.disallowed).toContain(`${origin('news')}/private/`);
    expect(truth.disallowed).toContain(`${origin('news')}/section/world?sort=date`);
  });

  it('are missing on the legacy host, which is then crawled entirely', async () => {
    expect((await httpGet(`${origin('legacy')}/robots.txt`)).status).toBe(404);
    expect(truth.disallowed.some((u) => u.startsWith(origin('legacy')))).toBe(false);
  });

  it('give one small host a crawl delay of half a second', async () => {
    expect(truth.crawlDelays).toEqual([{ host: origin('slow'), seconds: 0.5 }]);
    expect((await httpGet(`${origin('slow')}/robots.txt`)).body.toString()).toContain('Crawl-delay: 0.5');
    expect(truth.pages.filter((p) => p.startsWith(`${origin('slow')}/`))).toHaveLength(6);
  });

  it('announce sitemaps whose URLs are all reachable pages, with lastmod and changefreq', async () => {
    expect(truth.sitemaps).toContain(`${origin('news')}/sitemap-index.xml`);
    const index = (await httpGet(`${origin('news')}/sitemap-index.xml`)).body.toString();
    expect(index).toContain('<sitemapindex');
    const children = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
    const listed: string[] = [];
    for (const sitemap of [...truth.sitemaps.filter((s) => !s.endsWith('index.xml')), ...children]) {
      const xml = (await httpGet(sitemap)).body.toString();
      expect(xml).toContain('<urlset');
      expect(xml).toMatch(/<lastmod>2026-01-01<\/lastmod><changefreq>(daily|weekly|monthly|never)<\/changefreq>/);
      listed.push(...[...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replace(/&amp;/g, '&')));
    }
    const announced = new Set(truth.sitemaps.map((s) => new URL(s).origin));
    expect(listed.sort()).toEqual(truth.pages.filter((p) => announced.has(new URL(p).origin)).sort());
    for (const url of [...truth.sitemaps, ...children]) expect(truth.sitemapFiles).toContain(url);
    for (const url of truth.sitemapFiles) expect((await httpGet(url)).body.toString()).toMatch(/<urlset|<sitemapindex/);
  });
});
