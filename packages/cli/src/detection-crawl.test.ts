import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  canonicalUrl,
  createMetricsRegistry,
  parseCrawlJob,
  sampleValue,
  silentLogger,
  type LinkRecord,
} from '@crawler/core';
import { waitFor } from '@crawler/core/testing';
import { WarcPageStore } from '@crawler/embedded';
import { OWN_SITE_BUDGET } from '@crawler/fetcher';
import { startTestWeb, type TestWeb } from '@crawler/testweb';
import { afterEach, describe, expect, it } from 'vitest';
import { runCrawlSession } from './crawl-session.js';
import { startOneProcessCrawl } from './one-process-crawl.js';
import { readFootprintFile } from './ops/footprint-file.js';
import { summarizeFootprint } from './ops/footprint-report.js';

/** Our own loopback site, and deadlines short enough for a test; politeness stays as configured. */
const LOOPBACK = { allowAddresses: ['127.0.0.1'], totalTimeoutMs: 5000, headersTimeoutMs: 5000 };
const BACKOFF_MS = 1500;

/**
 * The guarded site judges visitors by their /24's page views per 10 minutes and per minute, mean
 * dwell time and attachments, and shows a blacklisted network a CAPTCHA page (with 200) for good.
 * A crawl with the default politeness finishes it unnoticed; one set to be impolite is
 * blacklisted, recognizes the block, stores none of it, leaves the site alone and probes it.
 */
describe('a crawl of the guarded site', { timeout: 120_000 }, () => {
  let web: TestWeb | undefined;
  const dirs: string[] = [];
  const scratch = () => {
    const dir = mkdtempSync(join(tmpdir(), 'guarded-crawl-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(async () => {
    await web?.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('with the default politeness, finds every page and is never blacklisted', async () => {
    web = await startTestWeb({ profile: 'guarded', pagesPerHost: 12 });
    const outDir = scratch();
    const truth = web.groundTruth();
    const summary = await runCrawlSession({
      outDir,
      job: parseCrawlJob({ seeds: web.seeds, maxDepth: truth.maxDepth }),
      quiet: true,
      maxTimeMs: 100_000,
      overrides: { fetcher: LOOPBACK },
    });
    expect(summary.stopReason).toBe('complete');
    expect(web.detection!.verdicts()).toEqual([]);
    for (const page of truth.pages) expect(web.requests.count(page), page).toBe(1);
    expect(summary.linkStatus.blocked_by_site).toBeUndefined();

    // The site's log: page views at least the default 2 s apart (less timer jitter), no attachment.
    const views = web.requests.entries().filter((entry) => !entry.url.endsWith('/robots.txt'));
    const gaps = views.slice(1).map((entry, i) => entry.at - views[i]!.at);
    expect(Math.min(...gaps)).toBeGreaterThan(2000 - 150);
    const meanDwell = (views.at(-1)!.at - views[0]!.at) / (views.length - 1);
    // Twice the classifier's 1 s, less the jitter between the crawler's slots and the server's clock.
    expect(meanDwell).toBeGreaterThan(web.detection!.thresholds.minMeanDwellMs * 2 - 100);

    // The crawler's own count agrees: 12 pages, none closer than 2 s, no attachment.
    const [site] = summarizeFootprint(readFootprintFile(outDir)).sites;
    expect(site).toMatchObject({
      site: new URL(web.seeds[0]!).host,
      network: '127.0.0.0/24',
      pages: truth.pages.length,
      attachments: 0,
    });
    expect(site!.minIntervalMs).toBeGreaterThanOrEqual(2000);
  });

  it('set to be impolite, is blacklisted, recognizes the CAPTCHA wall, stores none of it, backs off and probes', async () => {
    web = await startTestWeb({ profile: 'guarded', pagesPerHost: 12 });
    const outDir = scratch();
    const crawl = await startOneProcessCrawl({
      outDir,
      job: parseCrawlJob({ seeds: web.seeds, maxDepth: web.groundTruth().maxDepth }),
      logger: silentLogger(),
      overrides: {
        fetcher: {
          ...LOOPBACK,
          ...OWN_SITE_BUDGET,
          minDelayMs: 0,
          delayFactor: 0,
          perHostConcurrency: 4,
          blockBackoffMs: BACKOFF_MS,
        },
        scheduler: { tickMs: 50, retryBaseMs: 100 },
      },
    });
    let stopped = false;
    try {
      const verdicts = await waitFor(
        () => (web!.detection!.verdicts().length > 0 ? web!.detection!.verdicts() : null),
        30_000,
      );
      const verdict = verdicts![0]!;
      expect(verdict).toMatchObject({ network: '127.0.0.0/24', rule: 'dwell', attachments: 0 });
      // After the block: the requests in flight then, one probe after the back-off, and a second one after twice that.
      const afterVerdict = () => web!.requests.entries().filter((entry) => entry.at > verdict.at);
      const probes = await waitFor(() => {
        const times = afterVerdict().map((entry) => entry.at);
        const quiet = times.slice(1).flatMap((at, i) => (at - times[i]! >= BACKOFF_MS - 150 ? [at] : []));
        return quiet.length >= 2 ? { times, quiet } : null;
      }, 30_000);
      // The first probe comes after at least the back-off, the second after at least twice the back-off.
      const { quiet, times } = probes!;
      const [first, second] = quiet;
      const before = (at: number) => Math.max(...times.filter((time) => time < at));
      expect(first! - before(first!)).toBeGreaterThanOrEqual(BACKOFF_MS - 150);
      expect(second! - before(second!)).toBeGreaterThanOrEqual(2 * BACKOFF_MS - 150);
      // In all, the crawler sent the site at most the requests already in flight plus its probes.
      expect(times.length).toBeLessThanOrEqual(4 + 2 + 1);

      await crawl.linkbase.flush();
      const records: LinkRecord[] = [];
      for await (const record of crawl.linkbase.scan()) records.push(record);
      const blocked = records.filter((record) => record.status === 'blocked_by_site');
      expect(blocked.length).toBeGreaterThan(0);
      expect(blocked.some((record) => record.errorCode === 'SITE_CAPTCHA' && record.httpStatus === 200)).toBe(true);

      const registry = createMetricsRegistry('fetcher', { processMetrics: false });
      crawl.fetcher.metrics.register(registry, () => ({
        queues: 0,
        waiting: 0,
        inFlight: 0,
        robotsCacheHits: 0,
        robotsCacheMisses: 0,
        sitesBlocked: crawl.fetcher.holds.count('block'),
      }));
      const metrics = await registry.metrics();
      expect(sampleValue(metrics, 'crawler_site_blocks_total', { signal: 'captcha' })).toBeGreaterThanOrEqual(2);
      expect(sampleValue(metrics, 'crawler_sites_blocked')).toBe(1);

      // No CAPTCHA page was stored: every stored page is one the site served before the verdict.
      const stored = records.filter((record) => record.status === 'fetched' || record.status === 'duplicate');
      expect(stored.length).toBeGreaterThan(0);
      stopped = true;
      await crawl.stop();
      const pages = await WarcPageStore.open(join(outDir, 'warc'));
      try {
        for (const record of [...stored, ...blocked]) {
          for (const version of await pages.get(canonicalUrl(record.url)!, { versions: 5 }))
            expect(version.text, record.url).not.toContain('not a robot');
        }
        for (const record of blocked) expect(await pages.get(record.url)).toEqual([]);
      } finally {
        await pages.close();
      }
    } finally {
      if (!stopped) await crawl.stop();
    }
  });
});
