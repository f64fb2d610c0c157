import { startTestWeb, type TestWeb } from '@crawler/testweb';
import { afterAll, afterEach, describe, it } from 'vitest';
import { CrawlRun } from './support/crawl-run.js';
import { expectNothingLost, judgeCrawl } from './support/crawl-verdict.js';
import { ensureRunning, withOutage } from './support/stack-control.js';

/**
 * The Kafka broker stopped and started again mid-crawl: producers retry, consumers rejoin their
 * groups and resume from their committed offsets, so afterwards every page is stored exactly once,
 * every URL is settled, every group's lag is 0 and nothing was dead-lettered.
 */
describe('the Kafka broker restarted mid-crawl', () => {
  let web: TestWeb | undefined;
  let run: CrawlRun | undefined;

  afterEach(async () => {
    await run?.close();
    await web?.close();
  });
  afterAll(() => ensureRunning('kafka'), 240_000);

  it('loses nothing and stores nothing twice', async () => {
    web = await startTestWeb({ seed: 17, pagesPerHost: 30 });
    const truth = web.groundTruth();
    run = await CrawlRun.start({ label: 'broker-restart', job: { seeds: web.seeds, maxDepth: truth.maxDepth } });
    const live = run;
    await live.waitFor(
      'a quarter of the pages fetched',
      async () => ((await live.stats()).byStatus.fetched ?? 0) >= truth.pages.length / 4,
      90_000,
    );
    const outage = await withOutage('kafka', 5_000);
    const back = Date.now();
    await live.settled(240_000);
    console.info(
      `kafka: down ${Math.round(outage.downMs / 1000)} s, stop and start ${Math.round(outage.controlMs / 1000)} s, crawl settled ${Math.round((Date.now() - back) / 1000)} s after the start`,
    );

    expectNothingLost(await judgeCrawl(live, truth, web.requests));
  }, 420_000);
});
