import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  canonicalUrl,
  Codec,
  parseCrawlJob,
  Schemas,
  silentLogger,
  Topics,
  type CrawlJob,
  type LinkRecord,
  type Outlinks,
} from '@crawler/core';
import { waitFor } from '@crawler/core/testing';
import { startTestWeb, type TestWeb } from '@crawler/testweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testWebOverrides } from './commands/demo.js';
import { startOneProcessCrawl } from './one-process-crawl.js';
import { checkAgainstTruth } from './truth-check.js';

/** A crawl of the test web as `crawler demo` runs it, its data in outDir. */
function startCrawl(outDir: string, job: CrawlJob) {
  return startOneProcessCrawl({ outDir, job, logger: silentLogger(), overrides: testWebOverrides });
}

async function records(crawl: Awaited<ReturnType<typeof startOneProcessCrawl>>): Promise<Map<string, LinkRecord>> {
  const out = new Map<string, LinkRecord>();
  for await (const record of crawl.linkbase.scan()) out.set(record.url, record);
  return out;
}

describe('embedded crawl of the test web', () => {
  let web: TestWeb;
  let outDir: string;
  beforeAll(async () => {
    web = await startTestWeb({ seed: 3 });
    outDir = mkdtempSync(join(tmpdir(), 'embedded-crawl-'));
  });
  afterAll(async () => {
    await web.close();
    rmSync(outDir, { recursive: true, force: true });
  });

  it('fetches every reachable allowed page once, nothing disallowed, and finds the exact duplicates', async () => {
    const truth = web.groundTruth();
    const job = parseCrawlJob({ id: 'e2e', seeds: web.seeds, maxDepth: truth.maxDepth });
    const crawl = await startOneProcessCrawl({ outDir, job, logger: silentLogger(), overrides: testWebOverrides });
    try {
      expect(await crawl.waitUntilDone({ maxTimeMs: 60_000 })).toBe('complete');
      const report = checkAgainstTruth(truth, web.requests, await records(crawl));
      expect(report.missing).toEqual([]);
      expect(report.fetchedMoreThanOnce).toEqual([]);
      expect(report.disallowedRequested).toEqual([]);
      expect(report.exactDuplicateGroupsDetected).toBe(truth.exactDuplicates.length);
      expect(report.redirectLoopsDetected).toBe(truth.redirectLoops.length);
      expect(report.trapPagesFetched).toBeLessThanOrEqual(truth.trapBudget);
      expect(report.otherUrlsFetched).toEqual([]);
      expect(report.pass).toBe(true);
      // Nothing in this process reads the pages topic: it holds none of the pages it carried.
      const pagesTopic = await crawl.bus.lag('nobody', [Topics.pages]);
      expect(pagesTopic.reduce((sum, lag) => sum + lag.end, 0)).toBeGreaterThan(0);
      expect(pagesTopic.reduce((sum, lag) => sum + lag.lag, 0)).toBe(0);

      expect(report.outcomes.wrong).toEqual([]);
      expect(report.outcomes.checked).toBeGreaterThan(20);

      const page = truth.pages.find((url) => url.endsWith('/about'))!;
      const [stored] = await crawl.pages.get(canonicalUrl(page)!);
      expect(stored?.body.toString('utf8')).toContain('<html');
      expect(stored?.httpStatus).toBe(200);
    } finally {
      await crawl.stop();
    }
    expect(readdirSync(join(outDir, 'warc')).some((name) => name.endsWith('.warc.gz'))).toBe(true);
  });

  it('resumes from its output folder without fetching anything again', async () => {
    const before = web.requests.total();
    const truth = web.groundTruth();
    const crawl = await startOneProcessCrawl({
      outDir,
      job: parseCrawlJob({ id: 'e2e', seeds: web.seeds, maxDepth: truth.maxDepth }),
      logger: silentLogger(),
      overrides: testWebOverrides,
    });
    try {
      expect(await crawl.waitUntilDone({ maxTimeMs: 20_000 })).toBe('nothing due');
      expect(web.requests.total()).toBe(before);
      expect((await crawl.snapshot()).total).toBeGreaterThan(truth.pages.length);
    } finally {
      await crawl.stop();
    }
  });

  it('delivers after a restart the outlinks the scheduler had not taken in when the process stopped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'embedded-crawl-links-'));
    const [seed] = web.seeds;
    const job = parseCrawlJob({ id: 'links', seeds: [seed], maxDepth: 1 });
    const first = await startCrawl(dir, job);
    // The scheduler stops first, so the links message below is produced and never taken in.
    await first.scheduler.stop();
    const url = new URL('/only-in-a-links-message', seed!).href;
    const outlinks: Outlinks = {
      kind: 'page',
      sourceUrl: seed!,
      sourceUrlId: null,
      jobId: 'links',
      traceId: 'links-test',
      depth: 1,
      discoveredAt: Date.now(),
      links: [{ url, anchor: 'x', rel: null, source: 'a', lastmod: null, changefreq: null }],
    };
    await first.bus
      .producer()
      .send(Topics.links, [{ key: new URL(seed!).host, value: new Codec().encode(Schemas.Outlinks, outlinks) }]);
    await first.fetcher.stop();
    await first.linkextract.stop();
    await first.dedup.stop();
    await Promise.all([first.linkbase.close(), first.pages.close()]);
    await first.bus.close();

    const second = await startCrawl(dir, job);
    try {
      await waitFor(async () => (await records(second)).has(url));
    } finally {
      await second.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("splices a frameset's frames and a page's iframe into their text, fetching frames through the fetcher", async () => {
    const origin = web.hosts.find((host) => host.name === 'legacy')!.origin;
    const url = (path: string) => canonicalUrl(`${origin}${path}`)!;
    const before = {
      widget: web.requests.count(url('/widget.html'), 'GET'),
      robots: web.requests.count(url('/robots.txt'), 'GET'),
    };
    const framesDir = mkdtempSync(join(tmpdir(), 'frames-crawl-'));
    const job = parseCrawlJob({ id: 'frames', seeds: [url('/')], maxDepth: 1, extraction: { spliceFrames: true } });
    const crawl = await startCrawl(framesDir, job);
    try {
      expect(await crawl.waitUntilDone({ maxTimeMs: 30_000 })).toBe('complete');
      const [frameset] = await crawl.pages.get(url('/'));
      // The frameset itself has no text; its two frames' texts are spliced in.
      expect(frameset!.text).toContain('Pick a page.');
      expect(frameset!.text).toContain('Welcome to the home page of the Regional Rail Society');
      const [welcome] = await crawl.pages.get(url('/welcome.html'));
      expect(welcome!.text).toContain('You are visitor number 004711.');
      // widget.html is two hops from the seed (past maxDepth): only the frame fetch asked for it.
      expect(web.requests.count(url('/widget.html'), 'GET') - before.widget).toBe(1);
      // One robots.txt request for the host in this crawl: frames share the fetcher's robots cache.
      expect(web.requests.count(url('/robots.txt'), 'GET') - before.robots).toBe(1);
    } finally {
      await crawl.stop();
      rmSync(framesDir, { recursive: true, force: true });
    }
  });
});
