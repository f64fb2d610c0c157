import { Schemas, Topics, type FrontierRequest, type StatusUpdate } from '@crawler/core';
import { startTestWeb, type TestWeb } from '@crawler/testweb';
import { afterEach, describe, expect, it } from 'vitest';
import { CrawlRun } from '../reliability/support/crawl-run.js';
import { expectNothingLost, judgeCrawl } from '../reliability/support/crawl-verdict.js';
import { readTopic } from '../support/topic-records.js';

const SCHEDULERS = ['scheduler-1', 'scheduler-2'];

/**
 * Hand-outs of one URL that overlap: a second one while the first's lease still held and no
 * outcome of the URL had come back in between. Read from crawl.frontier and crawl.status.
 */
function leasedTwiceAtOnce(handedOut: FrontierRequest[], statuses: StatusUpdate[]): string[] {
  const answers = new Map<string, number[]>();
  for (const status of statuses) answers.set(status.urlId, [...(answers.get(status.urlId) ?? []), status.fetchedAt]);
  const byUrl = new Map<string, FrontierRequest[]>();
  for (const request of handedOut) byUrl.set(request.urlId, [...(byUrl.get(request.urlId) ?? []), request]);
  const overlapping: string[] = [];
  for (const requests of byUrl.values()) {
    requests.sort((a, b) => a.scheduledAt - b.scheduledAt);
    for (let i = 1; i < requests.length; i++) {
      const [first, second] = [requests[i - 1]!, requests[i]!];
      const answered = (answers.get(first.urlId) ?? []).some(
        (at) => at >= first.scheduledAt && at <= second.scheduledAt,
      );
      if (!answered && first.leaseUntil > second.scheduledAt)
        overlapping.push(`${first.url} (at ${first.scheduledAt} and ${second.scheduledAt})`);
    }
  }
  return overlapping;
}

/**
 * Two schedulers share a crawl of the test web with two fetchers, a link extractor and a dedup
 * worker, all OS processes on the stack with names of their own. One scheduler is killed with -9
 * mid-crawl and a new one started: its partitions pass to the survivor after the session timeout
 * (10 s here), then some come back to the new process, and no URL is leased by two at once.
 */
describe('partitioned schedulers on the stack', () => {
  let web: TestWeb | undefined;
  let run: CrawlRun | undefined;

  afterEach(async () => {
    await run?.close();
    await web?.close();
  });

  it('kill -9 of one of two schedulers and a new one started: nothing lost, no URL leased twice at once', async () => {
    web = await startTestWeb({ profile: 'bench', hosts: 16, pagesPerHost: 25, linksPerPage: 5 });
    const truth = web.groundTruth();
    run = await CrawlRun.start({
      label: 'two-schedulers',
      job: { seeds: web.seeds, maxDepth: truth.maxDepth },
      schedulers: 2,
      // Long enough that no lease runs out while the killed scheduler's partitions move: a second
      // hand-out of a URL would then be a double lease, not lost-task recovery.
      env: { SCHEDULER_LEASE_MS: '60000' },
    });
    const live = run;
    const owned = async (name: string) => ((await live.process(name).health())?.partitions as number[]) ?? [];
    await live.waitFor(
      'both schedulers to own partitions',
      async () => (await Promise.all(SCHEDULERS.map(owned))).every((partitions) => partitions.length > 0),
      30_000,
    );
    await live.waitFor(
      'a fifth of the pages fetched',
      async () => ((await live.stats()).byStatus.fetched ?? 0) >= truth.pages.length / 5,
      60_000,
    );
    await live.kill('scheduler-1');
    const replacement = await live.restart('scheduler-1');
    await live.waitFor(
      'the new scheduler to own partitions',
      async () => (await owned('scheduler-1')).length > 0,
      30_000,
    );
    await live.settled(90_000);

    expectNothingLost(await judgeCrawl(live, truth, web.requests));
    const handedOut = await readTopic<FrontierRequest>(live.bus, Topics.frontier, Schemas.FrontierRequest);
    const statuses = await readTopic<StatusUpdate>(live.bus, Topics.status, Schemas.StatusUpdate);
    expect(leasedTwiceAtOnce(handedOut, statuses)).toEqual([]);
    // The test web's own log: no page was requested more often than it was handed out.
    const handOuts = new Map<string, number>();
    for (const request of handedOut) handOuts.set(request.url, (handOuts.get(request.url) ?? 0) + 1);
    expect(truth.pages.filter((url) => web!.requests.count(url) > (handOuts.get(url) ?? 0))).toEqual([]);
    expect(Number((await replacement.health())?.emitted), 'the new scheduler handed URLs out').toBeGreaterThan(0);
    // Above the sum of the bounds of its waits (start-up 300 s, the steps 330 s), so a slow step fails
    // with its own message and the scheduler log instead of a bare test timeout.
  }, 660_000);
});
