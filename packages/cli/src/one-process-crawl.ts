import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createBus, createFingerprintStore, createLinkBase, createPageStore } from '@crawler/adapters';
import {
  BatchingProducer,
  catalogGroups,
  Codec,
  jobContentTypes,
  loadRuntimeConfig,
  type CrawlJob,
  type Logger,
  type PartitionLag,
  type RuntimeConfig,
} from '@crawler/core';
import { createDedupService, loadDedupConfig } from '@crawler/dedup';
import { InProcessBus } from '@crawler/embedded';
import { createFetcherService, loadFetcherConfig } from '@crawler/fetcher';
import { createLinkextractService, loadLinkextractConfig } from '@crawler/linkextract';
import { createSchedulerService, loadSchedulerConfig, type CrawlSnapshot } from '@crawler/scheduler';

export interface OneProcessCrawlOptions {
  outDir: string;
  job: CrawlJob;
  logger: Logger;
  /** Setting overrides per service (from command-line flags); environment and CRAWLER_CONFIG apply below them. */
  overrides?: {
    fetcher?: Record<string, unknown>;
    linkextract?: Record<string, unknown>;
    dedup?: Record<string, unknown>;
    scheduler?: Record<string, unknown>;
  };
  env?: NodeJS.ProcessEnv;
  /** On the real stack (Kafka, Elasticsearch, Redis, HBase, as configured by their variables) instead of embedded adapters. */
  stack?: boolean;
}

export type StopReason = 'complete' | 'page budget reached' | 'time limit' | 'interrupted';

/** Embedded adapters with their data in outDir: an in-process bus, a link base folder, WARC files. */
function embeddedRuntime(outDir: string): Partial<RuntimeConfig> {
  return {
    bus: 'embedded',
    linkbase: 'file',
    fingerprints: 'memory',
    pageStore: 'warc',
    dataDir: outDir,
    topicPrefix: '',
  };
}

/**
 * The whole loop in one process: the same four services and topics as a distributed deployment,
 * on embedded adapters (an in-process bus, a link base and WARC files in outDir) or, with
 * `stack`, on the real adapters the runtime settings name.
 */
export async function startOneProcessCrawl(options: OneProcessCrawlOptions) {
  const { outDir, job, logger } = options;
  const env = options.env ?? process.env;
  mkdirSync(outDir, { recursive: true });
  const runtime = loadRuntimeConfig({ env, overrides: options.stack ? {} : embeddedRuntime(outDir) });
  const fetcherConfig = loadFetcherConfig({ env, overrides: options.overrides?.fetcher });
  const configs = {
    fetcher: { ...fetcherConfig, contentTypes: [...new Set([...fetcherConfig.contentTypes, ...jobContentTypes(job)])] },
    linkextract: loadLinkextractConfig({ env, overrides: options.overrides?.linkextract }),
    dedup: loadDedupConfig({ env, overrides: options.overrides?.dedup }),
    scheduler: loadSchedulerConfig({ env, overrides: options.overrides?.scheduler }),
  };
  const portOptions = { env, embeddedBus: runtime.bus === 'embedded' ? new InProcessBus() : undefined };
  const bus = await createBus(runtime, logger, portOptions);
  const linkbase = await createLinkBase(runtime, logger, portOptions);
  const fingerprints = await createFingerprintStore(runtime, logger, portOptions);
  const pages = await createPageStore(runtime, logger, portOptions);
  const codec = new Codec();
  const producer = new BatchingProducer(bus.producer(), {
    lingerMs: runtime.bus === 'kafka' ? 5 : 0,
    maxBatchBytes: 1_000_000,
  });
  const topicPrefix = runtime.topicPrefix;

  const scheduler = await createSchedulerService(configs.scheduler, job, { bus, producer, codec, linkbase }, logger, {
    topicPrefix,
  });
  const fetcher = createFetcherService(configs.fetcher, { bus, producer, codec, state: fingerprints }, logger, {
    topicPrefix,
  });
  // Frames to splice are fetched by this process's fetcher: robots.txt, address policy and politeness as for any URL.
  const linkextract = createLinkextractService(configs.linkextract, job, { bus, producer, codec }, logger, {
    topicPrefix,
    frames: { fetchFrame: (url, signal) => fetcher.fetchDocument(url, job.id, signal) },
  });
  const dedup = createDedupService(configs.dedup, { bus, producer, codec, fingerprints, pages }, logger, {
    topicPrefix,
  });
  await Promise.all([dedup.start(), linkextract.start(), fetcher.start()]);
  await scheduler.start();

  const started = performance.now();

  async function lags(): Promise<PartitionLag[]> {
    const all = await Promise.all(catalogGroups(topicPrefix).map((group) => bus.lag(group.group, group.topics)));
    return all.flat();
  }

  /** Nothing in flight, nothing waiting in a topic, nothing pending (or the budget is spent). */
  async function isIdle(snapshot: CrawlSnapshot): Promise<boolean> {
    if (snapshot.inFlight > 0 || snapshot.leased > 0) return false;
    if (snapshot.pending > 0 && !snapshot.budgetSpent) return false;
    if (fetcher.runner.busy + linkextract.runner.busy + dedup.runner.busy > 0) return false;
    // Offsets are committed every second: without this, a finished crawl waits up to a second for its lag to reach 0.
    await Promise.all([
      fetcher.runner.commit(),
      linkextract.runner.commit(),
      dedup.runner.commit(),
      scheduler.commit(),
    ]);
    return (await lags()).every((lag) => lag.lag === 0);
  }

  /** Where pages and the link base went, for the summary. */
  function storage(): { pages: string; linkbase: string } {
    const pagesAt =
      runtime.pageStore === 'warc'
        ? `${join(runtime.dataDir, 'warc')} (WARC 1.1)`
        : `HBase table ${env.HBASE_TABLE ?? 'crawler_pages'}`;
    const linksAt =
      runtime.linkbase === 'file'
        ? join(runtime.dataDir, 'linkbase')
        : `Elasticsearch index ${env.ELASTICSEARCH_INDEX ?? 'crawler-links'}`;
    return { pages: pagesAt, linkbase: linksAt };
  }

  return {
    configs,
    storage,
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
    async waitUntilDone(limits: {
      maxTimeMs?: number;
      signal?: AbortSignal;
      onTick?: (snapshot: CrawlSnapshot) => void;
      tickMs?: number;
    }): Promise<StopReason> {
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

export type OneProcessCrawl = Awaited<ReturnType<typeof startOneProcessCrawl>>;
