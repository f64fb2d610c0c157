import {
  errorMessage,
  parseCrawlJob,
  StageRunner,
  type Bus,
  type BusProducer,
  type Codec,
  type CrawlJob,
  type LinkBase,
  type LinkBaseStats,
  type Logger,
  type StageObserver,
  type StageRunnerOptions,
} from '@crawler/core';
import { SchedulerAdmin } from './admin/scheduler-admin.js';
import type { SchedulerConfig } from './config.js';
import { ControlState } from './control-state.js';
import { FrontierEmitter } from './frontier-emitter.js';
import { JobRegistry } from './jobs/job-registry.js';
import { jobStartRecords, readmitRefusedSeed } from './jobs/job-seeds.js';
import { MonitoringSchedules } from './jobs/monitoring.js';
import { PartitionOwnership } from './partition-ownership.js';
import { countHandedOut, type SchedulerGauges } from './scheduler-metrics.js';
import {
  createLinksStage,
  createSchedulerCounters,
  createStatusStage,
  type SchedulerCounters,
} from './scheduler-stages.js';
import { UpdateBatcher } from './update-batcher.js';

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

export interface SchedulerServiceOptions {
  observer?: StageObserver;
  now?: () => number;
  random?: () => number;
  /** How often the jobs' monitoring schedules are checked. */
  monitorCheckMs?: number;
}

const MONITOR_CHECK_MS = 5000;

/**
 * Wires the scheduler: the status and links consumers (two groups), the frontier emitter, the
 * jobs (the job file's, and those added at run time), their monitoring schedules, and the
 * operator state (paused jobs and hosts) kept in the link base. Any number of schedulers share a
 * crawl: each owns the hosts of the crawl.status partitions its status consumer holds
 * (partition-ownership.ts), and reads the operator state again every few seconds, as another
 * scheduler's admin API may have changed it.
 */
export async function createSchedulerService(
  config: SchedulerConfig,
  job: CrawlJob,
  ports: SchedulerPorts,
  logger: Logger,
  options: SchedulerServiceOptions = {},
) {
  const log = logger.child({ component: 'scheduler' });
  const offset = config.clockOffsetMs;
  const now = options.now ?? (offset > 0 ? () => Date.now() + offset : Date.now);
  const random = options.random ?? Math.random;
  const jobs = new JobRegistry(job);
  const control = new ControlState(ports.linkbase);
  /** Jobs added or replaced at run time (here or through another scheduler's admin API), as last read. */
  const keptJobs = new Map<unknown, string>();
  const addKeptJobs = (kept: unknown[]): boolean => {
    let added = false;
    for (const raw of kept) {
      const id = (raw as { id?: unknown }).id;
      const text = JSON.stringify(raw);
      if (keptJobs.get(id) === text) continue;
      keptJobs.set(id, text);
      try {
        jobs.add(parseCrawlJob(raw, 'crawl job kept in the link base'));
        added = true;
      } catch (error) {
        log.warn({ err: errorMessage(error) }, 'a crawl job added earlier is no longer valid; skipped');
      }
    }
    return added;
  };
  addKeptJobs((await control.load()).jobs);
  // Page budgets count what earlier runs handed out.
  const visited = Object.fromEntries(
    Object.entries((await ports.linkbase.stats(now())).byJob).map(([id, counts]) => [id, counts.visited]),
  );
  const handedOut = new Map<string, number>();
  const ownership = new PartitionOwnership(ports.linkbase, log);
  const emitter = new FrontierEmitter(
    {
      linkbase: ports.linkbase,
      ownership,
      producer: ports.producer,
      codec: ports.codec,
      jobs,
      logger: log,
      tickMs: config.tickMs,
      batchSize: config.batchSize,
      perHostPerRound: config.perHostPerRound,
      maxInFlight: config.maxInFlight,
      maxInFlightPerHost: config.maxInFlightPerHost,
      leaseMs: config.leaseMs,
      maxLeaseExpiries: config.maxLeaseExpiries,
      selection: { classShares: config.trafficShares, levelWeights: config.levelWeights, hostOrder: config.hostOrder },
      exclude: () => control.exclude(),
      onHandedOut: (records) => countHandedOut(handedOut, records),
      now,
      random,
    },
    visited,
  );
  ownership.listen({
    // A new owner takes over the URLs in flight of its partitions: they hold their in-flight slots until answered.
    gained: async (partitions) =>
      emitter.adopt(await ports.linkbase.findLeased({ now: now(), partitions, limit: config.maxInFlight })),
    lost: (partitions) => emitter.release(partitions),
  });
  const counters = createSchedulerCounters();
  const stageOptions = {
    linkbase: ports.linkbase,
    jobs,
    counters,
    leaseMs: config.leaseMs,
    maxRedirectHops: config.maxRedirectHops,
    countInlinks: config.countInlinks,
    ownership,
    updates: new UpdateBatcher(ports.linkbase, () => ownership.verify()),
    policy: {
      maxAttempts: config.maxAttempts,
      retryBaseMs: config.retryBaseMs,
      retryMaxMs: config.retryMaxMs,
      minIntervalMs: config.recrawlMinMs,
      maxIntervalMs: config.recrawlMaxMs,
      targetProbability: config.recrawlProbability,
      hubBoost: config.hubBoost,
    },
    onAnswered: (urlId: string) => emitter.answered(urlId),
    now,
    random,
  };
  const runner = (
    stage: ReturnType<typeof createStatusStage> | ReturnType<typeof createLinksStage>,
    groupId: string,
    partitionHooks: Pick<StageRunnerOptions<unknown>, 'onAssigned' | 'onRevoked'> = {},
  ) =>
    new StageRunner({
      ...partitionHooks,
      stage: stage as never,
      bus: ports.bus,
      codec: ports.codec,
      producer: ports.producer,
      groupId,
      logger: log,
      concurrency: 64,
      observer: options.observer,
    });
  // The status consumer's partitions are the hosts this scheduler owns; the links consumer's are not
  // (links are keyed by the page they were found on, and point anywhere).
  const statusRunner = runner(createStatusStage(stageOptions), 'scheduler.status', {
    onAssigned: (partitions) => ownership.assign(partitions.map((tp) => tp.partition)),
    onRevoked: async (partitions) => {
      await ownership.revoke(partitions.map((tp) => tp.partition));
      // A round that verified its epochs before the revoke ends before the partitions move.
      await emitter.settled();
    },
  });
  const linksRunner = runner(createLinksStage(stageOptions), 'scheduler.links');
  const monitoring = new MonitoringSchedules(jobs, ports.linkbase, log, (id) => control.isJobPaused(id), random);
  let monitored = 0;
  let monitorTimer: NodeJS.Timeout | null = null;
  let monitorRun: Promise<void> = Promise.resolve();
  const refreshControl = async () => {
    if (addKeptJobs((await control.load()).jobs)) emitter.jobsChanged();
  };
  const checkSchedules = () => {
    monitorRun = refreshControl()
      .then(() => monitoring.run(now()))
      .then((count) => void (monitored += count))
      .catch((error: unknown) => log.error({ err: errorMessage(error) }, 'monitoring schedules failed; trying again'));
  };
  const admin = new SchedulerAdmin({
    linkbase: ports.linkbase,
    jobs,
    control,
    emitter,
    log,
    now,
    random,
    onInserted: (count) => void (counters.discovered += count),
  });
  const gauges: SchedulerGauges = {
    counters,
    handedOut,
    inFlight: () => emitter.inFlightCount,
    poisoned: () => emitter.poisoned,
    monitored: () => monitored,
    paused: () => ({ jobs: control.current.pausedJobs.length, queues: control.current.pausedQueues.length }),
  };

  return {
    emitter,
    ownership,
    counters,
    jobs,
    control,
    admin,
    gauges,
    async start() {
      // Seeds, sitemaps and monitored URLs of every job enter the link base directly: create-if-absent, so a restart adds nothing.
      const at = now();
      for (const known of jobs.list()) {
        const records = jobStartRecords(known, at, random);
        if (records.length === 0) continue;
        const created = new Set(await ports.linkbase.insertNew(records));
        counters.discovered += created.size;
        const existing = records.filter((record) => !created.has(record.id)).map((record) => record.id);
        if (existing.length > 0) await ports.linkbase.update(existing, (record) => readmitRefusedSeed(record, at));
      }
      await statusRunner.start();
      await linksRunner.start();
      emitter.start();
      checkSchedules();
      monitorTimer = setInterval(checkSchedules, options.monitorCheckMs ?? MONITOR_CHECK_MS);
      monitorTimer.unref();
    },
    /** Commits the offsets of links and statuses handled so far. */
    async commit() {
      await Promise.all([statusRunner.commit(), linksRunner.commit()]);
    },
    async stop() {
      if (monitorTimer) clearInterval(monitorTimer);
      await monitorRun;
      await emitter.stop();
      await linksRunner.stop();
      await statusRunner.stop();
      await ports.linkbase.flush();
    },
    /** Whether anything can be handed out now: a crawl with nothing in flight and nothing due is done. */
    hasDueWork: () => emitter.hasDueWork(now()),
    /** The scheduler's clock (the system clock shifted by SCHEDULER_CLOCK_OFFSET_MS). */
    now,
    async snapshot(snapshotOptions: { withDue?: boolean } = {}): Promise<CrawlSnapshot> {
      const at = now();
      const stats = await ports.linkbase.stats(at, { due: snapshotOptions.withDue });
      // Leased URLs are mostly pending ones on a first crawl; exact whenever nothing is leased.
      const pending = Math.max(0, (stats.byStatus.queued ?? 0) + (stats.byStatus.retry ?? 0) - stats.leased);
      return { ...stats, pending, inFlight: emitter.inFlightCount, budgetSpent: emitter.budgetSpent, counters };
    },
  };
}

export type SchedulerService = Awaited<ReturnType<typeof createSchedulerService>>;
