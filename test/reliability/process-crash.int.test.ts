import { startTestWeb, type TestWeb } from '@crawler/testweb';
import { afterEach, describe, expect, it } from 'vitest';
import { CrawlRun } from './support/crawl-run.js';
import { expectNothingLost, judgeCrawl } from './support/crawl-verdict.js';

/**
 * kill -9 of one service process while the four crawl the test web, then a new process in its
 * place: at-least-once delivery plus idempotent sinks must leave every page stored exactly once,
 * every URL settled and every group's lag at 0. A killed member leaves its group after
 * KAFKA_SESSION_TIMEOUT_MS (10 s here); a killed scheduler's leases run out after SCHEDULER_LEASE_MS (15 s).
 */
describe('a service killed mid-crawl and restarted', () => {
  let web: TestWeb | undefined;
  let run: CrawlRun | undefined;

  afterEach(async () => {
    await run?.close();
    await web?.close();
  });

  it.each(['fetcher-1', 'linkextract', 'dedup', 'scheduler'])(
    'kill -9 %s: nothing lost, nothing stored twice',
    async (name) => {
      web = await startTestWeb({ seed: 7, pagesPerHost: 30 });
      const truth = web.groundTruth();
      run = await CrawlRun.start({ label: `kill-${name}`, job: { seeds: web.seeds, maxDepth: truth.maxDepth } });
      const live = run;
      // Early enough that work is left for the new process whichever partitions it is given.
      await live.waitFor(
        'a fifth of the pages fetched',
        async () => ((await live.stats()).byStatus.fetched ?? 0) >= truth.pages.length / 5,
        90_000,
      );
      await live.kill(name);
      const restarted = await live.restart(name);
      await live.settled(180_000);

      expectNothingLost(await judgeCrawl(live, truth, web.requests));
      // The new process did work: a stage runner counts messages, the scheduler URLs handed out.
      const details = await restarted.health();
      expect(
        Number(details?.processed ?? details?.emitted ?? 0),
        `${name} took work over after its restart`,
      ).toBeGreaterThan(0);
    },
    300_000,
  );
});
