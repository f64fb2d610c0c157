import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createBus, createFingerprintStore, createLinkBase, createPageStore } from '@crawler/adapters';
import {
  applyHeapGrowth,
  BatchingProducer,
  catalogGroups,
  Codec,
  loadCatalog,
  loadRuntimeConfig,
  type CrawlJob,
  type Logger,
  type PartitionLag,
  type RuntimeConfig,
  Topics,
} from '@crawler/core';
import { createDedupService, loadDedupConfig } from '@crawler/dedup';
import { InProcessBus } from '@crawler/embedded';
import { createFetcherService, loadFetcherConfig } from '@crawler/fetcher';
import { createLinkextractService, loadLinkextractConfig } from '@crawler/linkextract';
import { createSchedulerService, loadSchedulerConfig, type CrawlSnapshot } from '@crawler/scheduler';
import { FootprintFile } from './ops/footprint-file.js';
import { watchWrites, type WriteFailureLatch } from './write-failure.js';

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
  /** Told when a store's write fails for want of disk (or a disk that refuses writes), so the crawl can stop. */
  writeFailures?: WriteFailureLatch;
}

export type StopReason = 'complete' | 'page budget reached' | 'time limit' | 'interrupted' | 'nothing due';

/** How long a stop waits for the pages already fetched to pass through extraction, dedup and the scheduler. */
const DRAIN_MS = 30_000;
/** How often a running crawl copies its footprint to outDir (for crawler footprint --out). */
const FOOTPRINT_SAVE_MS = 10_000;

/** Embedded adapters with their data in outDir: an in-process bus, a link base folder, WARC files. */
function embeddedRuntime(outDir: string): Partial<RuntimeConfig> {
  return {
    bus: 'embedded',
    linkbase: 'file',
    fingerprints: 'memory',
    pageStore: 'warc',
    dataDir: outDir,
  };
}

/** Catalog topics no stage of the loop reads: what the crawl hands to people and data teams. */
function unreadTopics(): string[] {
  const read = new Set(catalogGroups().flatMap((group) => group.topics));
  return loadCatalog()
    .topics.map((topic) => topic.name)
    .filter((name) => !read.has(name));
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
  // The whole loop's pages pass through this one heap: on the real-web bed V8's own schedule ran it at
  // 190 MB for a 60 MB live set (peak RSS 422 MB; 271 MB at 50 %, for about a tenth more CPU).
  applyHeapGrowth(runtime.heapGrowingPercent);
  const configs = {
    fetcher: loadFetcherConfig({ env, overrides: options.overrides?.fetcher }),
    linkextract: loadLinkextractConfig({ env, overrides: options.overrides?.linkextract }),
    dedup: loadDedupConfig({ env, overrides: options.overrides?.dedup }),
    scheduler: loadSchedulerConfig({ env, overrides: options.overrides?.scheduler }),
  };
  // crawl.links is kept on disk: outlinks the scheduler had not taken in when the process died would
  // be lost for good, as their page is not fetched again. Everything else a crash loses in flight
  // is recovered by fetching the URLs that were leased again.
  // The topics for people (crawl.pages, crawl.review, crawl.dlq) have no reader in this process and no
  // other process can reach its bus: what they kept (up to 8 MB of pages per partition) was dead weight.
  const embeddedBus =
    runtime.bus === 'embedded'
      ? new InProcessBus({
          durable: { dir: join(outDir, 'bus'), topics: [Topics.links] },
          retentionBytesByTopic: Object.fromEntries(unreadTopics().map((topic) => [topic, 0])),
        })
      : undefined;
  const portOptions = { env, embeddedBus };
  const watched = <T extends object>(port: T, where: string): T =>
    options.writeFailures ? watchWrites(port, where, options.writeFailures) : port;
  const bus = await createBus(runtime, logger, portOptions);
  const linkbase = watched(await createLinkBase(runtime, logger, portOptions), 'the link base');
  const fingerprints = watched(await createFingerprintStore(runtime, logger, portOptions), 'the fingerprint store');
  const pages = watched(await createPageStore(runtime, logger, portOptions), 'the page store');
  const codec = new Codec();
  const producer = new BatchingProducer(bus.producer(), {
    lingerMs: runtime.bus === 'kafka' ? 5 : 0,
    maxBatchBytes: 1_000_000,
  });
  const scheduler = await createSchedulerService(configs.scheduler, job, { bus, producer, codec, linkbase }, logger);
  const fetcher = createFetcherService(configs.fetcher, job, { bus, producer, codec, state: fingerprints }, logger);
  // Frames to splice are fetched by this process's fetcher: robots.txt, address policy and politeness as for any URL.
  const linkextract = createLinkextractService(configs.linkextract, job, { bus, producer, codec }, logger, {
    frames: { fetchFrame: (url, signal) => fetcher.fetchDocument(url, job.id, signal) },
  });
  const dedup = createDedupService(configs.dedup, { bus, producer, codec, fingerprints, pages }, logger);
  await Promise.all([dedup.start(), linkextract.start(), fetcher.start()]);
  await scheduler.start();
  // The footprint lives in the fingerprint store; an in-process one goes with the process, so it is copied to outDir.
  const footprintFile = FootprintFile.open(outDir);
  const saveFootprint = async () => {
    if (fetcher.pacing) await footprintFile.save(await fetcher.pacing.footprint());
  };
  const footprintTimer = setInterval(
    () => void saveFootprint().catch((error: unknown) => logger.warn({ err: error }, 'footprint not saved')),
    FOOTPRINT_SAVE_MS,
  );
  footprintTimer.unref();

  const started = performance.now();

  async function lags(): Promise<PartitionLag[]> {
    const all = await Promise.all(catalogGroups().map((group) => bus.lag(group.group, group.topics)));
    return all.flat();
  }

  /**
   * Nothing in flight, nothing waiting in a topic, nothing pending (or the budget is spent), and
   * nothing due: a re-crawl's due pages are `fetched`, not pending, and are handed out a round at a time.
   */
  async function isIdle(snapshot: CrawlSnapshot): Promise<boolean> {
    if (snapshot.inFlight > 0 || snapshot.leased > 0) return false;
    if (snapshot.pending > 0 && !snapshot.budgetSpent) return false;
    if (!(await settled(catalogGroups()))) return false;
    return !(await scheduler.hasDueWork());
  }

  /** The groups' stages are idle and every topic they read is consumed. */
  async function settled(groups: { group: string; topics: string[] }[]): Promise<boolean> {
    if (fetcher.runner.busy + linkextract.runner.busy + dedup.runner.busy > 0) return false;
    // Offsets are committed every second: without this, a finished crawl waits up to a second for its lag to reach 0.
    await Promise.all([
      fetcher.runner.commit(),
      linkextract.runner.commit(),
      dedup.runner.commit(),
      scheduler.commit(),
    ]);
    const all = await Promise.all(groups.map((group) => bus.lag(group.group, group.topics)));
    return all.flat().every((lag) => lag.lag === 0);
  }

  let draining: Promise<void> | null = null;
  /**
   * The first half of a graceful stop: no more URLs handed out, the fetcher finishes its requests
   * in flight and hands back the URLs still waiting for their host (leased: due again at the next
   * start), and what was fetched passes through extraction, dedup and the scheduler (up to
   * DRAIN_MS), so the crawl's figures and stores include it.
   */
  function drain(): Promise<void> {
    draining ??= (async () => {
      await scheduler.emitter.stop();
      await fetcher.stop();
      // The frontier keeps what the fetcher handed back: only the stages after it are waited for.
      const downstream = catalogGroups().filter((group) => !group.topics.includes(Topics.frontier));
      // A store the disk refuses will not settle: nothing more is waited for then.
      const deadline = performance.now() + DRAIN_MS;
      while (performance.now() < deadline && !options.writeFailures?.failure && !(await settled(downstream)))
        await new Promise((resolve) => setTimeout(resolve, 50));
    })();
    return draining;
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
    snapshot: (options?: { withDue?: boolean }) => scheduler.snapshot(options),
    lags,

    /**
     * Resolves when the crawl is idle twice in a row, the time limit passes or `signal` aborts. The
     * limit and the signal end the wait at once, even while a snapshot or a store call hangs.
     */
    async waitUntilDone(limits: {
      maxTimeMs?: number;
      signal?: AbortSignal;
      onTick?: (snapshot: CrawlSnapshot) => void;
      tickMs?: number;
    }): Promise<StopReason> {
      const tickMs = limits.tickMs ?? 250;
      let finished = false;
      let timer: NodeJS.Timeout | undefined;
      let onAbort = () => {};
      const stopped = new Promise<StopReason>((resolve) => {
        onAbort = () => resolve('interrupted');
        if (limits.signal?.aborted) onAbort();
        limits.signal?.addEventListener('abort', onAbort, { once: true });
        if (limits.maxTimeMs !== undefined)
          timer = setTimeout(() => resolve('time limit'), limits.maxTimeMs - (performance.now() - started));
      });
      const idle = async (): Promise<StopReason> => {
        let idleTicks = 0;
        while (!finished) {
          await new Promise((resolve) => setTimeout(resolve, tickMs));
          const snapshot = await scheduler.snapshot();
          if (finished) break;
          limits.onTick?.(snapshot);
          idleTicks = (await isIdle(snapshot)) ? idleTicks + 1 : 0;
          if (idleTicks < 2) continue;
          if (snapshot.budgetSpent && snapshot.pending > 0) return 'page budget reached';
          return scheduler.emitter.emitted === 0 ? 'nothing due' : 'complete';
        }
        return 'interrupted';
      };
      const loop = idle();
      // Once the wait is over, a snapshot that fails (a store stopping) no longer matters.
      loop.catch(() => undefined);
      try {
        return await Promise.race([loop, stopped]);
      } finally {
        finished = true;
        clearTimeout(timer);
        limits.signal?.removeEventListener('abort', onAbort);
      }
    },

    drain,

    /**
     * Stops gracefully (drain first), every stage in loop order, and makes every store durable. Every store
     * is closed even when one fails (a full disk), so no handle keeps the process alive; the first
     * failure is thrown after.
     */
    async stop(): Promise<void> {
      clearInterval(footprintTimer);
      const failures: unknown[] = [];
      const step = (action: () => Promise<unknown>) => action().catch((error: unknown) => void failures.push(error));
      await step(() => drain());
      await step(() => saveFootprint());
      await step(() => linkextract.stop());
      await step(() => dedup.stop());
      await step(() => scheduler.stop());
      await step(() => producer.flush());
      await step(() => linkbase.close());
      await step(() => pages.close());
      await step(() => fingerprints.close());
      await step(() => bus.close());
      if (failures.length > 0) throw failures[0];
    },
  };
}

export type OneProcessCrawl = Awaited<ReturnType<typeof startOneProcessCrawl>>;
