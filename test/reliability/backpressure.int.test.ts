import { startTestWeb, type TestWeb } from '@crawler/testweb';
import { afterEach, describe, expect, it } from 'vitest';
import { CrawlRun } from './support/crawl-run.js';
import { expectNothingLost, judgeCrawl } from './support/crawl-verdict.js';
import { MiB, processMemory } from './support/process-memory.js';
import { stackAddresses, type StackAddresses } from './support/stack-env.js';
import { startThrottlingProxy, type ThrottlingProxy } from './support/throttling-proxy.js';

/** Each chunk a service sends the slowed store waits this long: a store ten to a hundred times slower than here. */
const DELAY_MS = 100;
/**
 * Peak RSS any service may reach while a store is slow. Measured: 130-160 MiB for linkextract,
 * dedup and the scheduler, 205-210 for the fetchers (as with a fast store); a backlog held in
 * memory instead of Kafka (hundreds of pages of 20-60 KB and their parses) would pass it.
 */
const PEAK_RSS_BOUND = 400 * MiB;

interface Throttled {
  component: string;
  address: keyof StackAddresses;
  /** The consumer groups that wait for the slowed store. */
  groups: string[];
}

const CASES: Throttled[] = [
  { component: 'hbase', address: 'HBASE_REST_URL', groups: ['dedup'] },
  { component: 'elasticsearch', address: 'ELASTICSEARCH_URL', groups: ['scheduler.status', 'scheduler.links'] },
];

/**
 * A store slowed by a proxy for a whole crawl: the services that write to it fall behind, the
 * backlog waits in Kafka (their groups' lag grows) rather than in their memory, and the crawl still
 * ends with nothing lost and nothing stored twice.
 */
describe('a slow store', () => {
  let web: TestWeb | undefined;
  let run: CrawlRun | undefined;
  let proxy: ThrottlingProxy | undefined;

  afterEach(async () => {
    await run?.close();
    await proxy?.close();
    await web?.close();
  });

  it.each(CASES)(
    '$component slowed: the backlog waits in Kafka, memory stays bounded, nothing is lost',
    async ({ component, address, groups }) => {
      web = await startTestWeb({ seed: 13, pagesPerHost: 30 });
      const truth = web.groundTruth();
      proxy = await startThrottlingProxy(stackAddresses()[address], DELAY_MS);
      run = await CrawlRun.start({
        label: `slow-${component}`,
        job: { seeds: web.seeds, maxDepth: truth.maxDepth },
        serviceAddresses: { [address]: proxy.url },
      });
      const live = run;
      const peaks = new Map<string, number>();
      let maxLag = 0;
      const sample = async () => {
        for (const name of live.processNames) {
          const pid = live.process(name).child.pid;
          if (pid !== undefined) peaks.set(name, Math.max(peaks.get(name) ?? 0, processMemory(pid).peakRss));
        }
        maxLag = Math.max(maxLag, await live.lag(groups));
      };
      const sampler = setInterval(() => void sample().catch(() => undefined), 500);
      try {
        await live.settled(240_000);
      } finally {
        clearInterval(sampler);
      }
      await sample();

      expectNothingLost(await judgeCrawl(live, truth, web.requests));
      const peakMiB = Object.fromEntries([...peaks].map(([name, bytes]) => [name, Math.round(bytes / MiB)]));
      console.info(
        `${component} slowed by ${DELAY_MS} ms per chunk (${proxy.delayedChunks} chunks): max lag of ${groups.join(', ')} ${maxLag}, peak RSS MiB ${JSON.stringify(peakMiB)}`,
      );
      expect(proxy.delayedChunks, 'the services went through the slow proxy').toBeGreaterThan(100);
      expect(maxLag, 'the backlog waited in Kafka').toBeGreaterThan(10);
      expect(peaks.size).toBe(live.processNames.length);
      for (const [name, bytes] of peaks) expect(bytes, `${name} peak RSS`).toBeLessThan(PEAK_RSS_BOUND);
    },
    360_000,
  );
});
