import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalUrl, parseCrawlJob, silentLogger, type LinkRecord } from '@crawler/core';
import { startTestWeb, type GroundTruth, type TestWeb } from '@crawler/testweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOneProcessCrawl, type OneProcessCrawl } from '../one-process-crawl.js';
import { testWebOverrides } from './demo.js';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** The per-site rules a crawl of the render web needs: the truth says which pages scroll or click. */
function rulesFor(truth: GroundTruth): unknown[] {
  return truth.rendering.enhanced.map(({ url, trigger, steps, selector }) => ({
    pattern: `^${escape(url)}$`,
    // One more than the batches: the last scroll or click finds the end.
    ...(trigger === 'scroll' ? { scrolls: steps + 1 } : {}),
    ...(trigger === 'click' ? { click: selector, clicks: steps + 1 } : {}),
  }));
}

describe('a crawl of pages built by JavaScript, with rendering on', () => {
  let web: TestWeb;
  let truth: GroundTruth;
  let outDir: string;
  let crawl: OneProcessCrawl;
  const records = new Map<string, LinkRecord>();
  const stored = async (url: string) => (await crawl.pages.get(url, { versions: 1 }))[0];

  beforeAll(async () => {
    web = await startTestWeb({ profile: 'render', seed: 6 });
    truth = web.groundTruth();
    outDir = mkdtempSync(join(tmpdir(), 'render-crawl-'));
    const rulesFile = join(outDir, 'render-rules.json');
    writeFileSync(rulesFile, JSON.stringify({ rules: rulesFor(truth) }));
    const fetcher = {
      ...testWebOverrides.fetcher,
      totalTimeoutMs: 10_000,
      headersTimeoutMs: 5000,
      bodyTimeoutMs: 5000,
      render: true,
      renderRulesFile: rulesFile,
      renderLearnSamples: 3,
      renderIdleMs: 300,
    };
    crawl = await startOneProcessCrawl({
      outDir,
      job: parseCrawlJob({ id: 'render', seeds: web.seeds, maxDepth: truth.maxDepth }),
      logger: silentLogger(),
      overrides: { ...testWebOverrides, fetcher },
    });
    expect(await crawl.waitUntilDone({ maxTimeMs: 150_000 })).toBe('complete');
    for await (const record of crawl.linkbase.scan()) records.set(record.url, record);
  }, 180_000);
  afterAll(async () => {
    await crawl?.stop();
    await web?.close();
    rmSync(outDir, { recursive: true, force: true });
  });

  it('finds every page, those only scripts reveal included, and nothing else', () => {
    const fetched = [...records.values()]
      .filter((record) => record.status === 'fetched' || record.status === 'duplicate')
      .map((record) => record.url);
    expect(truth.rendering.onlyRendered.length).toBeGreaterThan(25);
    expect(truth.pages.filter((url) => !fetched.includes(canonicalUrl(url)!))).toEqual([]);
    expect(fetched.filter((url) => !truth.pages.map((page) => canonicalUrl(page)).includes(url))).toEqual([]);
  });

  it('records script redirects as redirects and sends nothing where robots.txt or the address policy forbid', () => {
    for (const { from, to } of truth.rendering.jsRedirects)
      expect(records.get(canonicalUrl(from)!), from).toMatchObject({
        status: 'redirect',
        redirectTo: canonicalUrl(to),
      });
    for (const url of truth.disallowed) expect(web.requests.count(url), url).toBe(0);
    for (const url of truth.rendering.offMachine) expect(records.has(canonicalUrl(url)!), url).toBe(false);
  });

  it('stores shells and rule pages rendered, plain pages as fetched, and stops rendering the inert site once it learned', async () => {
    const redirecting = new Set(truth.rendering.jsRedirects.map((r) => r.from));
    const mustRender = [
      ...truth.rendering.shells.filter((url) => !redirecting.has(url)),
      ...truth.rendering.enhanced.map((e) => e.url),
    ];
    for (const url of mustRender) expect((await stored(url))?.charsetSource, url).toBe('rendered');
    const special = new Set([...mustRender, ...truth.rendering.inert]);
    const plain = truth.pages.filter((url) => !special.has(url));
    for (const url of plain) {
      const page = await stored(url);
      if (page) expect(page.charsetSource, url).not.toBe('rendered');
    }
    const inertRendered = (await Promise.all(truth.rendering.inert.map(stored))).filter(
      (page) => page?.charsetSource === 'rendered',
    ).length;
    // Three samples decide; pages already routed while the decision was pending may add a few.
    expect(inertRendered).toBeGreaterThanOrEqual(3);
    expect(inertRendered).toBeLessThan(truth.rendering.inert.length / 2);
    expect(crawl.fetcher.renderer?.metrics.results.get('redirect')).toBe(truth.rendering.jsRedirects.length);
  });
});
