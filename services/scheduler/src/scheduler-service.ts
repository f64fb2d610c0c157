import { createLinkRecord, StageRunner, type Bus, type BusProducer, type Codec, type CrawlJob, type LinkBase, type LinkBaseStats, type Logger, type StageObserver } from '@crawler/core';
import type { SchedulerConfig } from './config.js';
import { FrontierEmitter } from './frontier-emitter.js';
import { createLinksStage, createSchedulerCounters, createStatusStage, type SchedulerCounters } from './scheduler-stages.js';

export interface SchedulerPorts {
  bus: Bus;
  producer: BusProducer;
  codec: Codec;
  linkbase: LinkBase;
}

export interface CrawlSnapshot extends LinkBaseStats {
  /** URLs waiting for a first answer or a retry. */
  pending: number;
  inFlight: number;
  budgetSpent: boolean;
  counters: SchedulerCounters;
}

/** Wires the scheduler: the status and links consumers (two groups) and the frontier emitter. */
export async function createSchedulerService(config: SchedulerConfig, job: CrawlJob, ports: SchedulerPorts, logger: Logger, options: { topicPrefix?: string; observer?: StageObserver; now?: () => number } = {}) {
  const log = logger.child({ component: 'scheduler' });
  const now = options.now ?? Date.now;
  let alreadyHandedOut = 0;
  for await (const record of ports.linkbase.scan()) if (record.fetchCount > 0 || record.leaseUntil > 0) alreadyHandedOut++;
  const emitter = new FrontierEmitter(
    {
      linkbase: ports.linkbase,
      producer: ports.producer,
      codec: ports.codec,
      job,
      logger: log,
      tickMs: config.tickMs,
      batchSize: config.batchSize,
      perHostPerRound: config.perHostPerRound,
      maxInFlight: config.maxInFlight,
      maxInFlightPerHost: config.maxInFlightPerHost,
      leaseMs: config.leaseMs,
      maxLeaseExpiries: config.maxLeaseExpiries,
      topicPrefix: options.topicPrefix,
      now,
    },
    alreadyHandedOut,
  );
  const counters = createSchedulerCounters();
  const stageOptions = {
    linkbase: ports.linkbase,
    job,
    counters,
    leaseMs: config.leaseMs,
    maxRedirectHops: config.maxRedirectHops,
    policy: { recrawlIntervalMs: job.recrawlIntervalMs, maxAttempts: config.maxAttempts, retryBaseMs: config.retryBaseMs, retryMaxMs: config.retryMaxMs },
    onAnswered: (urlId: string) => emitter.answered(urlId),
    now,
  };
  const runner = (stage: ReturnType<typeof createStatusStage> | ReturnType<typeof createLinksStage>, groupId: string) =>
    new StageRunner({ stage: stage as never, bus: ports.bus, codec: ports.codec, producer: ports.producer, groupId, logger: log, concurrency: 64, topicPrefix: options.topicPrefix, observer: options.observer });
  const statusRunner = runner(createStatusStage(stageOptions), 'scheduler.status');
  const linksRunner = runner(createLinksStage(stageOptions), 'scheduler.links');

  return {
    emitter,
    counters,
    async start() {
      // Seeds of the job enter the link base directly: create-if-absent, so a restart adds nothing.
      const at = now();
      const seeds = job.seeds.map((url) => createLinkRecord(url, { jobId: job.id, source: 'seed', discoveredAt: at, nextFetchAt: at }));
      if (seeds.length > 0) {
        const inserted = await ports.linkbase.insertNew(seeds);
        counters.discovered += inserted.length;
      }
      await statusRunner.start();
      await linksRunner.start();
      emitter.start();
    },
    async stop() {
      await emitter.stop();
      await linksRunner.stop();
      await statusRunner.stop();
      await ports.linkbase.flush();
    },
    async snapshot(options: { withDue?: boolean } = {}): Promise<CrawlSnapshot> {
      const at = now();
      const stats = await ports.linkbase.stats(at, { due: options.withDue });
      // Leased URLs are mostly pending ones on a first crawl; exact whenever nothing is leased.
      const pending = Math.max(0, (stats.byStatus.queued ?? 0) + (stats.byStatus.retry ?? 0) - stats.leased);
      return { ...stats, pending, inFlight: emitter.inFlightCount, budgetSpent: emitter.budgetSpent, counters };
    },
  };
}

export type SchedulerService = Awaited<ReturnType<typeof createSchedulerService>>;
