import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BatchingProducer, Codec, createLinkRecord, loadCatalog, Schemas, Topics, type CrawlJob, type Logger, type Outlinks, type PartitionLag } from '@crawler/core';
import { createDedupService, loadDedupConfig } from '@crawler/dedup';
import { FileLinkBase, InProcessBus, MemoryFingerprintStore, WarcPageStore } from '@crawler/embedded';
import { createFetcherService, loadFetcherConfig } from '@crawler/fetcher';
import { createLinkextractService, loadLinkextractConfig } from '@crawler/linkextract';
import { createSchedulerService, loadSchedulerConfig, type CrawlSnapshot } from '@crawler/scheduler';

export interface EmbeddedCrawlOptions {
  outDir: string;
  job: CrawlJob;
  logger: Logger;
  /** Setting overrides per service (from command-line flags); environment and CRAWLER_CONFIG apply below them. */
  overrides?: { fetcher?: Record<string, unknown>; linkextract?: Record<string, unknown>; dedup?: Record<string, unknown>; scheduler?: Record<string, unknown> };
  env?: NodeJS.ProcessEnv;
}

export type StopReason = 'complete' | 'page budget reached' | 'time limit' | 'interrupted';

/**
 * The whole loop in one process on the embedded adapters: the same four services and topics as
 * a distributed deployment, wired to an in-process bus, a link base and WARC files in outDir.
 */
export async function startEmbeddedCrawl(options: EmbeddedCrawlOptions) {
  const { outDir, job, logger } = options;
  const env = options.env ?? process.env;
  mkdirSync(outDir, { recursive: true });
  const configs = {
    fetcher: loadFetcherConfig({ env, overrides: options.overrides?.fetcher }),
    linkextract: loadLinkextractConfig({ env, overrides: options.overrides?.linkextract }),
    dedup: loadDedupConfig({ env, overrides: options.overrides?.dedup }),
    scheduler: loadSchedulerConfig({ env, overrides: options.overrides?.scheduler }),
  };
  const catalog = loadCatalog();
  const bus = new InProcessBus();
  await bus.createTopics(catalog.topics);
  const codec = new Codec();
  const producer = new BatchingProducer(bus.producer());
  const linkbase = await FileLinkBase.open(join(outDir, 'linkbase'));
  const fingerprints = new MemoryFingerprintStore();
  const pages = await WarcPageStore.open(join(outDir, 'warc'));

  const scheduler = await createSchedulerService(configs.scheduler, job, { bus, producer, codec, linkbase }, logger);
  const fetcher = createFetcherService(configs.fetcher, { bus, producer, codec, state: fingerprints }, logger);
  const linkextract = createLinkextractService(configs.linkextract, job, { bus, producer, codec }, logger);
  const dedup = createDedupService(configs.dedup, { bus, producer, codec, fingerprints, pages }, logger);
  await Promise.all([dedup.start(), linkextract.start(), fetcher.start()]);
  await scheduler.start();
  await injectSeeds(job);

  const started = performance.now();

  async function injectSeeds(crawlJob: CrawlJob): Promise<void> {
    const seeds = crawlJob.seeds.map((url) => ({ url: createLinkRecord(url).url, anchor: null, rel: null, source: 'seed' }));
    if (seeds.length === 0) return;
    const message: Outlinks = { kind: 'seed', sourceUrl: null, sourceUrlId: null, jobId: crawlJob.id, traceId: 'seed', depth: 0, discoveredAt: Date.now(), links: seeds };
    await producer.send(Topics.links, [{ key: new URL(seeds[0]!.url).host, value: codec.encode(Schemas.Outlinks, message) }]);
  }

  async function lags(): Promise<PartitionLag[]> {
    const all = await Promise.all(catalog.consumerGroups.map((group) => bus.lag(group.group, group.topics)));
    return all.flat();
  }

  /** Nothing in flight, nothing waiting in a topic, nothing pending (or the budget is spent). */
  async function isIdle(snapshot: CrawlSnapshot): Promise<boolean> {
    if (snapshot.inFlight > 0 || snapshot.leased > 0) return false;
    if (snapshot.pending > 0 && !snapshot.budgetSpent) return false;
    if (fetcher.runner.busy + linkextract.runner.busy + dedup.runner.busy > 0) return false;
    return (await lags()).every((lag) => lag.lag === 0);
  }

  return {
    configs,
    scheduler,
    fetcher,
    linkextract,
    dedup,
    bus,
    pages,
    linkbase,
    elapsedMs: () => performance.now() - started,
    snapshot: () => scheduler.snapshot(),
    lags,

    /** Resolves when the crawl is idle twice in a row, the time limit passes or `signal` aborts. */
    async waitUntilDone(limits: { maxTimeMs?: number; signal?: AbortSignal; onTick?: (snapshot: CrawlSnapshot) => void; tickMs?: number }): Promise<StopReason> {
      const tickMs = limits.tickMs ?? 250;
      let idleTicks = 0;
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, tickMs));
        const snapshot = await scheduler.snapshot();
        limits.onTick?.(snapshot);
        if (limits.signal?.aborted) return 'interrupted';
        if (limits.maxTimeMs !== undefined && performance.now() - started >= limits.maxTimeMs) return 'time limit';
        idleTicks = (await isIdle(snapshot)) ? idleTicks + 1 : 0;
        if (idleTicks >= 2) return snapshot.budgetSpent && snapshot.pending > 0 ? 'page budget reached' : 'complete';
      }
    },

    /** Stops every stage in loop order and makes the link base and WARC files durable. */
    async stop(): Promise<void> {
      await scheduler.emitter.stop();
      await fetcher.stop();
      await linkextract.stop();
      await dedup.stop();
      await scheduler.stop();
      await producer.flush();
      await linkbase.close();
      await pages.close();
      await fingerprints.close();
      await bus.close();
    },
  };
}

export type EmbeddedCrawl = Awaited<ReturnType<typeof startEmbeddedCrawl>>;
