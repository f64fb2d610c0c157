import { startTestWeb, type TestWeb } from '@crawler/testweb';
import { afterAll, afterEach, describe, it } from 'vitest';
import { CrawlRun } from './support/crawl-run.js';
import { expectNothingLost, judgeCrawl } from './support/crawl-verdict.js';
import { ensureRunning, withOutage, type StackComponent } from './support/stack-control.js';

const OUTAGE_MS = 30_000;

/**
 * A store stopped for 30 s in the middle of a crawl and started again: the services wait for it
 * (retries, a held consumer) instead of giving messages up, so afterwards every page is stored
 * exactly once, every URL is settled, every group's lag is 0 and nothing was dead-lettered.
 */
describe('a store down for 30 s mid-crawl', () => {
  let web: TestWeb | undefined;
  let run: CrawlRun | undefined;

  afterEach(async () => {
    await run?.close();
    await web?.close();
  });
  // withOutage starts the component again in any case; this covers a test that timed out inside it.
  afterAll(async () => {
    for (const component of ['elasticsearch', 'hbase', 'redis'] as const) await ensureRunning(component);
  }, 240_000);

  it.each<StackComponent>(['elasticsearch', 'hbase', 'redis'])(
    '%s: nothing lost, nothing stored twice',
    async (component) => {
      web = await startTestWeb({ seed: 11, pagesPerHost: 30 });
      const truth = web.groundTruth();
      run = await CrawlRun.start({ label: `outage-${component}`, job: { seeds: web.seeds, maxDepth: truth.maxDepth } });
      const live = run;
      await live.waitFor(
        'a quarter of the pages fetched',
        async () => ((await live.stats()).byStatus.fetched ?? 0) >= truth.pages.length / 4,
        90_000,
      );
      const outage = await withOutage(component, OUTAGE_MS);
      const back = Date.now();
      await live.settled(240_000);
      console.info(
        `${component}: down ${Math.round(outage.downMs / 1000)} s, stop and start ${Math.round(outage.controlMs / 1000)} s, crawl settled ${Math.round((Date.now() - back) / 1000)} s after the start`,
      );

      expectNothingLost(await judgeCrawl(live, truth, web.requests));
    },
    420_000,
  );
});
