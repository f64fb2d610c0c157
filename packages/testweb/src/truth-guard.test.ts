import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl, type CrawlResult } from './test-support/naive-crawler.js';
import { startTestWeb, type TestWeb } from './test-web.js';
import type { GroundTruth } from './truth/ground-truth.js';

describe('ground truth of the full profile', () => {
  let web: TestWeb;
  let truth: GroundTruth;
  let found: CrawlResult;

  beforeAll(async () => {
    web = await startTestWeb({ seed: 7 });
    truth = web.groundTruth();
    found = await crawl(
      web.seeds,
      truth.maxDepth,
      truth.traps.map((t) => t.prefix),
    );
  });
  afterAll(() => web.close());

  it('lists exactly the pages a naive breadth-first crawl finds', () => {
    expect([...found.pages].sort()).toEqual([...truth.pages].sort());
    expect(truth.pages.length).toBeGreaterThan(250);
  });

  it('lists exactly the disallowed links, the redirects, the errors, the endless and the non-HTML URLs', () => {
    expect(new Set(found.disallowed)).toEqual(new Set(truth.disallowed));
    expect(new Set(found.redirects)).toEqual(new Set(truth.redirects));
    expect(new Set(found.errors)).toEqual(new Set(truth.errors));
    expect(found.endless).toEqual(new Set(truth.endless));
    expect(new Set(found.nonHtml)).toEqual(new Set(truth.nonHtml));
  });

  it('sent no request to a disallowed URL and counted the crawl in the request log', () => {
    for (const url of truth.disallowed) expect(web.requests.count(url)).toBe(0);
    for (const url of truth.pages.slice(0, 20)) expect(web.requests.count(url, 'GET')).toBeGreaterThanOrEqual(1);
    const flaky = truth.flaky[0]!;
    expect(web.requests.count(flaky.url)).toBe(flaky.failures + 1);
  });
});
