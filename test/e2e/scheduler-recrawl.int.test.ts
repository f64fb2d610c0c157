import { parseCrawlJob, type LinkRecord } from '@crawler/core';
import { startTestWeb, type GroundTruth, type TestWeb } from '@crawler/testweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, startStackCrawl, type StackCrawl } from '../support/stack-crawl.js';

const RETRY_BASE = 60_000;
const DAYS = 8;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The scheduler on Elasticsearch with the real fetcher, link extraction and dedup, crawling the
 * test web and then living through simulated days of it (rounds; the scheduler's clock is virtual).
 */
describe('scheduler on Elasticsearch against the test web', () => {
  let web: TestWeb;
  let truth: GroundTruth;
  let crawl: StackCrawl;
  let first: Map<string, LinkRecord>;

  beforeAll(async () => {
    web = await startTestWeb({ seed: 1 });
    truth = web.groundTruth();
    // The slow host's endless page and 1.5 s answer would only make every simulated day longer.
    const slow = web.hosts.find((host) => host.name === 'slow')!.origin;
    crawl = await startStackCrawl(
      parseCrawlJob({
        id: 'recrawl',
        seeds: web.seeds.filter((seed) => !seed.startsWith(slow)),
        maxDepth: truth.maxDepth,
        scope: { deny: [`^${escape(slow)}/`] },
      }),
      {
        scheduler: { retryBaseMs: RETRY_BASE, retryMaxMs: 10 * RETRY_BASE },
      },
    );
    await crawl.settle();
    first = await crawl.records();
  }, 180_000);
  afterAll(async () => {
    await crawl?.close();
    await web?.close();
  });

  it('stops scheduling gone and robots-blocked URLs: requested once, and never, respectively', async () => {
    const gone = truth.errors.filter((error) => error.status === 404 || error.status === 410).map((error) => error.url);
    expect(gone.length).toBeGreaterThan(0);
    for (const url of gone)
      expect(first.get(url)).toMatchObject({ status: 'gone', nextFetchAt: Number.MAX_SAFE_INTEGER });
    for (const url of truth.disallowed) expect(web.requests.count(url)).toBe(0);
    expect([...first.values()].filter((record) => record.status === 'blocked').length).toBeGreaterThan(0);
  });

  it('backs failures off exponentially, then waits for the re-crawl', async () => {
    const failing = truth.errors
      .filter((error) => error.status >= 500)
      .map((error) => error.url)
      .filter((url) => first.has(url));
    expect(failing.length).toBeGreaterThan(0);
    const delay = (record: LinkRecord) => record.nextFetchAt - record.lastFetchAt!;
    for (const url of failing) {
      expect(first.get(url)).toMatchObject({ status: 'retry', consecutiveFailures: 1 });
      expect(delay(first.get(url)!)).toBeGreaterThanOrEqual(RETRY_BASE / 2);
      expect(delay(first.get(url)!)).toBeLessThanOrEqual(RETRY_BASE);
    }
    crawl.clock.now += RETRY_BASE;
    await crawl.settle();
    const second = await crawl.records();
    for (const url of failing) {
      expect(second.get(url)).toMatchObject({ status: 'retry', consecutiveFailures: 2 });
      expect(delay(second.get(url)!)).toBeGreaterThanOrEqual(RETRY_BASE);
      expect(delay(second.get(url)!)).toBeLessThanOrEqual(2 * RETRY_BASE);
    }
    crawl.clock.now += 2 * RETRY_BASE;
    await crawl.settle();
    const third = await crawl.records();
    for (const url of failing)
      expect(third.get(url)).toMatchObject({
        status: 'error',
        consecutiveFailures: 3,
        nextFetchAt: third.get(url)!.lastFetchAt! + DAY,
      });
  }, 120_000);

  it(`re-crawls pages that change sooner than pages that do not, over ${DAYS} simulated days`, async () => {
    for (let day = 1; day <= DAYS; day++) {
      web.setRound(day);
      for (const hour of [0, 12]) {
        crawl.clock.now = Date.UTC(2026, 0, 1) + day * DAY + hour * 3_600_000;
        await crawl.settle();
      }
    }
    const records = await crawl.records();
    const rates = new Map(truth.changeRates.map((rate) => [rate.url, rate.probability]));
    const pages = [...records.values()].filter((record) => record.status === 'fetched' && rates.has(record.url));
    const often = pages.filter((record) => rates.get(record.url) === 1);
    const never = pages.filter((record) => rates.get(record.url) === 0);
    expect(often.length).toBeGreaterThan(3);
    expect(never.length).toBeGreaterThan(20);
    const fetches = (group: LinkRecord[]) => group.reduce((sum, record) => sum + record.fetchCount, 0) / group.length;
    const interval = (group: LinkRecord[]) => median(group.map((record) => record.nextFetchAt - record.lastSeenAt!));
    expect(fetches(often)).toBeGreaterThan(2 * fetches(never));
    expect(interval(often)).toBeLessThan(interval(never) / 4);
    expect(median(often.map((record) => record.changeRate!))).toBeGreaterThan(
      10 * median(never.map((record) => record.changeRate!)),
    );
    expect(never.every((record) => record.changeHistory.every((observation) => !observation.changed))).toBe(true);
    // A page its sitemap called "never" before its first fetch is planned 30 days out, so it may
    // have no re-fetch (and no history) in these days; any other page was re-fetched after a day.
    expect(
      never
        .filter((record) => record.changeHistory.length === 0)
        .every((record) => record.sitemapChangefreq === 'never'),
    ).toBe(true);
  }, 600_000);
});
