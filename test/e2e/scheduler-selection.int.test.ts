import { parseCrawlJob } from '@crawler/core';
import { startTestWeb, type TestWeb } from '@crawler/testweb';
import { afterEach, describe, expect, it } from 'vitest';
import { startStackCrawl, type StackCrawl } from '../support/stack-crawl.js';

/** The scheduler on Elasticsearch with the real fetcher, link extraction and dedup, crawling the test web. */
describe('selection on Elasticsearch against the test web', () => {
  let web: TestWeb | undefined;
  let crawl: StackCrawl | undefined;
  afterEach(async () => {
    await crawl?.close();
    await web?.close();
    crawl = undefined;
    web = undefined;
  });

  it('hands out each host breadth-first, and fetches every page of the ground truth once', async () => {
    web = await startTestWeb({ profile: 'bench', hosts: 3, pagesPerHost: 60, linksPerPage: 6 });
    const truth = web.groundTruth();
    // One URL per host in flight: the order a host's URLs are handed out is the order it is crawled.
    crawl = await startStackCrawl(parseCrawlJob({ id: 'bfs', seeds: web.seeds, maxDepth: truth.maxDepth }), {
      scheduler: { maxInFlightPerHost: 1 },
    });
    await crawl.settle(120_000);
    for (const url of truth.pages) expect(web.requests.count(url)).toBe(1);
    for (const host of web.hosts) {
      const depths = crawl.handedOut
        .filter((request) => request.url.startsWith(`${host.origin}/`))
        .map((request) => request.depth);
      expect(depths.length).toBe(60);
      expect(depths).toEqual([...depths].sort((a, b) => a - b));
      expect(new Set(depths).size).toBeGreaterThan(2);
    }
  }, 180_000);

  it('leaves a paused host untouched (not even robots.txt) and a paused job too, and picks both up on resume', async () => {
    web = await startTestWeb({ profile: 'bench', hosts: 3, pagesPerHost: 20, linksPerPage: 4 });
    const [open, paused, other] = web.hosts;
    const pausedKey = new URL(paused!.origin).host;
    crawl = await startStackCrawl(parseCrawlJob({ id: 'main', seeds: [`${open!.origin}/`, `${paused!.origin}/`] }), {
      beforeStart: async (service) => {
        await service.control.setQueuePaused(pausedKey, true);
        await service.control.setJobPaused('side', true);
      },
    });
    await crawl.service.admin.addJob({ id: 'side', seeds: [`${other!.origin}/`] });
    await crawl.settle();
    const requested = (origin: string) => web!.requests.urls().filter((url) => url.startsWith(`${origin}/`));
    expect(requested(open!.origin).length).toBeGreaterThan(20);
    expect(requested(paused!.origin)).toEqual([]);
    expect(requested(other!.origin)).toEqual([]);
    expect((await crawl.linkbase.stats(crawl.clock.now, { due: true })).due).toBe(2);
    await crawl.service.control.setQueuePaused(pausedKey, false);
    await crawl.service.admin.setJobPaused('side', false);
    await crawl.settle();
    expect(requested(paused!.origin).length).toBeGreaterThan(20);
    // Link extraction scopes links by the job file's job, so the added job gets its seed fetched, and links only where that scope allows.
    expect(requested(other!.origin)).toContain(`${other!.origin}/`);
  }, 180_000);
});
