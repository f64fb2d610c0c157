import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalUrl, parseCrawlJob, silentLogger, type LinkRecord, type StoredPage } from '@crawler/core';
import { startTestWeb, type TestWeb } from '@crawler/testweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testWebOverrides } from './commands/demo.js';
import { startOneProcessCrawl } from './one-process-crawl.js';
import { checkAgainstTruth } from './truth-check.js';

/**
 * What extraction put into a stored page: the same whichever thread parsed it. Its links, digest and
 * SimHash are left out: the links stored are those not seen before, and the digest is taken after the
 * site's template (learned from the pages seen so far) is removed, so they follow the order pages finish in.
 */
function extracted(page: StoredPage) {
  const { title, description, lang, publishedAt, text, markdown, fields, canonicalUrl } = page;
  return { title, description, lang, publishedAt, text, markdown, fields, canonicalUrl };
}

describe('embedded crawl with link extraction on worker threads', () => {
  let web: TestWeb;
  const dirs: string[] = [];
  beforeAll(async () => {
    web = await startTestWeb({ seed: 3 });
  });
  afterAll(async () => {
    await web.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  async function crawlWith(workers: number) {
    const outDir = mkdtempSync(join(tmpdir(), `parse-threads-${workers}-`));
    dirs.push(outDir);
    const truth = web.groundTruth();
    // The same content, and flaky pages failing as often, for each crawl.
    web.setRound(0);
    const crawl = await startOneProcessCrawl({
      outDir,
      job: parseCrawlJob({ id: `threads-${workers}`, seeds: web.seeds, maxDepth: truth.maxDepth }),
      logger: silentLogger(),
      overrides: { ...testWebOverrides, linkextract: { workers } },
    });
    try {
      expect(await crawl.waitUntilDone({ maxTimeMs: 60_000 })).toBe('complete');
      const records = new Map<string, LinkRecord>();
      for await (const record of crawl.linkbase.scan()) records.set(record.url, record);
      const pages = new Map<string, ReturnType<typeof extracted>>();
      for (const record of records.values()) {
        const [stored] = await crawl.pages.get(canonicalUrl(record.url)!);
        if (stored) pages.set(record.url, extracted(stored));
      }
      return {
        threads: crawl.linkextract.extractor.threads,
        records,
        pages,
        report: checkAgainstTruth(truth, web.requests, records),
      };
    } finally {
      await crawl.stop();
    }
  }

  it('finds, stores and decides what the crawl parsing on its main thread does', async () => {
    const inPlace = await crawlWith(0);
    const threaded = await crawlWith(2);
    expect(inPlace.threads).toBe(0);
    expect(threaded.threads).toBeGreaterThan(0);
    expect(inPlace.report.pass).toBe(true);
    // The second crawl asks the same web again: only what does not count requests is checked on it.
    expect(threaded.report.missing).toEqual([]);
    expect(threaded.report.outcomes.wrong).toEqual([]);
    expect(threaded.report.exactDuplicateGroupsDetected).toBe(inPlace.report.exactDuplicateGroupsDetected);
    expect([...threaded.records.keys()].sort()).toEqual([...inPlace.records.keys()].sort());
    // Which copy of a (near) duplicate is kept follows the order pages finish in, as between two runs on
    // one thread; how many pages there are, and what each holds, do not.
    const statuses = (crawl: typeof inPlace) => {
      const counts: Record<string, number> = {};
      for (const { status } of crawl.records.values()) {
        const kind = status === 'duplicate' ? 'fetched' : status;
        counts[kind] = (counts[kind] ?? 0) + 1;
      }
      return counts;
    };
    expect(statuses(threaded)).toEqual(statuses(inPlace));
    const both = [...inPlace.pages.keys()].filter((url) => threaded.pages.has(url));
    expect(both.length).toBeGreaterThan(0.9 * inPlace.pages.size);
    for (const url of both) expect(threaded.pages.get(url), url).toEqual(inPlace.pages.get(url));
  }, 150_000);
});
