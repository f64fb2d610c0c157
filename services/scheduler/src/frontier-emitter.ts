import {
  Schemas,
  Topics,
  startTrace,
  TRACE_HEADER,
  type BusProducer,
  type Codec,
  type DueQuery,
  type FrontierRequest,
  type LinkBase,
  type LinkRecord,
  type Logger,
  ErrorCode,
  fetchNever,
  withNextFetch,
} from '@crawler/core';
import type { JobRegistry } from './jobs/job-registry.js';
import { hostPoliteness, type HostPoliteness } from './jobs/host-politeness.js';
import type { PartitionOwnership } from './partition-ownership.js';
import { selectRound, type SelectionPolicy } from './selection/round-selection.js';

export interface FrontierEmitterOptions {
  linkbase: LinkBase;
  producer: BusProducer;
  codec: Codec;
  jobs: JobRegistry;
  logger: Logger;
  tickMs: number;
  batchSize: number;
  perHostPerRound: number;
  maxInFlight: number;
  maxInFlightPerHost: number;
  leaseMs: number;
  maxLeaseExpiries: number;
  selection: SelectionPolicy;
  /** The partitions whose URLs this scheduler hands out; absent, every partition is this process's. */
  ownership?: PartitionOwnership;
  /** Paused queues and jobs, asked before every round. */
  exclude?: () => DueQuery['exclude'];
  /** Called with the records of every round as they are sent. */
  onHandedOut?(records: readonly LinkRecord[]): void;
  now?: () => number;
  random?: () => number;
}

/** Due candidates fetched per URL a round may hand out: room to choose by class and level. */
const CANDIDATES_PER_SLOT = 2;
const MAX_CACHED_POLITENESS = 50_000;
/** Due URLs looked at to tell whether anything can be handed out: enough to see past new URLs a spent budget holds back. */
const DUE_PROBE = 1000;
const NO_OVERRIDES: HostPoliteness = Object.freeze({});
/** The shared counters of first visits handed out per job: page budgets hold across schedulers. */
export const PAGE_COUNTERS = 'pages-handed-out';

/**
 * Hands due URLs to the fetchers: each round takes due candidates from the link base (per host and
 * group, hosts round-robin), picks the round by traffic class shares and level weights
 * (selection/round-selection.ts), leases the picks, and publishes them on crawl.frontier keyed by
 * politeness key. In-flight URLs are bounded in all and per host (and per host as the jobs'
 * politeness overrides say), so the frontier topic never floods. With several schedulers, each
 * hands out only the URLs of the partitions it owns (partition-ownership.ts), takes over the
 * URLs in flight of a partition it gains, and reserves first visits against the page budgets in
 * the link base's shared counters, so a budget holds whatever the number of schedulers.
 */
export class FrontierEmitter {
  private readonly inFlight = new Map<string, { queueKey: string; partition: number; until: number }>();
  private readonly perHost = new Map<string, number>();
  /** Earliest next hand-out of hosts with a minimum delay. */
  private readonly nextAllowed = new Map<string, number>();
  private readonly politeness = new Map<string, HostPoliteness>();
  private overridesExist: boolean;
  /** First visits handed out per job, as the shared counters said at the last round. */
  private readonly budgetUsed: Map<string, number>;
  /** What a job's counter starts from when no scheduler wrote it yet (URLs visited before the counters existed). */
  private readonly budgetSeed: Record<string, number>;
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private round: Promise<void> = Promise.resolve();
  emitted = 0;
  poisoned = 0;

  /** `alreadyHandedOut`: per job, URLs handed out before this process started (its page budget counts them). */
  constructor(
    private readonly options: FrontierEmitterOptions,
    alreadyHandedOut: Record<string, number> = {},
  ) {
    this.budgetUsed = new Map(Object.entries(alreadyHandedOut));
    this.budgetSeed = alreadyHandedOut;
    this.overridesExist = options.jobs.list().some((job) => job.politeness.length > 0);
  }

  start(): void {
    this.running = true;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    await this.round;
  }

  /** Waits for the round in progress, if any. */
  async settled(): Promise<void> {
    await this.round;
  }

  /** URLs leased in partitions this scheduler just gained (by an earlier owner, or by itself before a restart) hold their slots. */
  adopt(records: readonly LinkRecord[]): void {
    for (const record of records) {
      if (this.inFlight.has(record.id)) continue;
      this.inFlight.set(record.id, {
        queueKey: record.queueKey,
        partition: record.partition,
        until: record.leaseUntil,
      });
      this.perHost.set(record.queueKey, (this.perHost.get(record.queueKey) ?? 0) + 1);
    }
  }

  /** Partitions given up: their answers go to their next owner, so their slots are freed here. */
  release(partitions: readonly number[]): void {
    const gone = new Set(partitions);
    for (const [id, entry] of this.inFlight) if (gone.has(entry.partition)) this.answered(id);
  }

  /** A URL was answered: its slot is free. */
  answered(urlId: string): void {
    const entry = this.inFlight.get(urlId);
    if (!entry) return;
    this.inFlight.delete(urlId);
    const count = (this.perHost.get(entry.queueKey) ?? 1) - 1;
    if (count <= 0) this.perHost.delete(entry.queueKey);
    else this.perHost.set(entry.queueKey, count);
  }

  /** The jobs' politeness overrides changed (a job was added). */
  jobsChanged(): void {
    this.politeness.clear();
    this.overridesExist = this.options.jobs.list().some((job) => job.politeness.length > 0);
  }

  get inFlightCount(): number {
    return this.inFlight.size;
  }

  /** URLs in flight per queue, most first. */
  inFlightByQueue(limit = 20): { queueKey: string; inFlight: number }[] {
    return [...this.perHost]
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(([queueKey, inFlight]) => ({ queueKey, inFlight }));
  }

  /** True once the job file's job has spent its page budget. */
  get budgetSpent(): boolean {
    return this.isBudgetSpent(this.options.jobs.defaultJob.id, 0);
  }

  /**
   * Whether a round at `now` would find a URL to hand out (in-flight caps aside): due, not paused,
   * and a re-crawl or within its job's page budget. Re-crawls are due with status `fetched`, so
   * counting queued URLs alone would call a re-crawl done while most of it is still due.
   */
  async hasDueWork(now: number): Promise<boolean> {
    if (this.options.ownership?.owned.length === 0) return false;
    const due = await this.options.linkbase.findDue({
      now,
      limit: DUE_PROBE,
      perQueueLimit: 1,
      exclude: this.options.exclude?.(),
      partitions: this.options.ownership?.filter,
    });
    return due.some((record) => record.fetchCount > 0 || !this.isBudgetSpent(record.jobId, 0));
  }

  private isBudgetSpent(jobId: string, pending: number): boolean {
    const maxPages = this.options.jobs.get(jobId).maxPages;
    return maxPages > 0 && (this.budgetUsed.get(jobId) ?? 0) + pending >= maxPages;
  }

  private schedule(delayMs: number): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.round = this.runRound()
        .catch((error: unknown) =>
          this.options.logger.error({ err: (error as Error).message }, 'frontier round failed; retrying next round'),
        )
        .then((full) => this.schedule(full === true ? 0 : this.options.tickMs));
    }, delayMs);
  }

  /** One round; true when it was cut short by the room (more is due right now). */
  async runRound(): Promise<boolean> {
    const now = (this.options.now ?? Date.now)();
    this.forgetExpired(now);
    const room = Math.min(this.options.batchSize, this.options.maxInFlight - this.inFlight.size);
    const ownership = this.options.ownership;
    if (room <= 0 || ownership?.owned.length === 0) return false;
    await this.readBudgets();
    const due = await this.options.linkbase.findDue({
      now,
      limit: room * CANDIDATES_PER_SLOT,
      perQueueLimit: this.options.perHostPerRound,
      exclude: this.options.exclude?.(),
      partitions: ownership?.filter,
    });
    const firstVisits = new Map<string, number>();
    const allowances = new Map<string, number>();
    const chosen = selectRound(
      {
        candidates: due.filter((record) => !this.inFlight.has(record.id)),
        room,
        hostAllowance: (queueKey) => {
          let allowance = allowances.get(queueKey);
          if (allowance === undefined) allowances.set(queueKey, (allowance = this.hostAllowance(queueKey, now)));
          return allowance;
        },
        admit: (record) => {
          if (record.fetchCount > 0) return true;
          const pending = firstVisits.get(record.jobId) ?? 0;
          if (this.isBudgetSpent(record.jobId, pending)) return false;
          firstVisits.set(record.jobId, pending + 1);
          return true;
        },
        random: this.options.random ?? Math.random,
      },
      this.options.selection,
    );
    if (chosen.length === 0) return false;
    // Checked against the epochs in the link base right before the write: a partition claimed by
    // another scheduler since the findDue is left out.
    await ownership?.verify();
    const owned = ownership ? chosen.filter((record) => ownership.owns(record.partition)) : chosen;
    const granted = await this.reserveFirstVisits(owned);
    const until = now + this.options.leaseMs;
    const leased = await this.options.linkbase.lease(
      granted.map((record) => record.id),
      until,
      now,
    );
    const poisoned = leased.filter((record) => record.leaseExpiries > this.options.maxLeaseExpiries);
    if (poisoned.length > 0) await this.giveUpOn(poisoned, now);
    const sendable = leased.filter((record) => record.leaseExpiries <= this.options.maxLeaseExpiries);
    await this.returnFirstVisits(granted, sendable);
    for (const record of sendable) {
      this.inFlight.set(record.id, { queueKey: record.queueKey, partition: record.partition, until });
      this.perHost.set(record.queueKey, (this.perHost.get(record.queueKey) ?? 0) + 1);
      const delay = this.politenessOf(record.queueKey).minDelayMs;
      if (delay) this.nextAllowed.set(record.queueKey, now + delay);
    }
    // Each URL handed out starts a trace: its W3C trace id is the request's traceId, and its
    // traceparent travels as a header, as on every message the stage runners produce.
    const traces = sendable.map((record) =>
      startTrace('schedule', {
        'url.full': record.url,
        'crawler.depth': record.depth,
        'crawler.job': record.jobId,
        'crawler.traffic_class': record.trafficClass,
      }),
    );
    try {
      await this.options.producer.send(
        Topics.frontier,
        sendable.map((record, i) => {
          const request = toRequest(record, now, until, traces[i]!.traceId);
          return {
            key: record.queueKey,
            value: this.options.codec.encode(Schemas.FrontierRequest, request),
            headers: { ...traces[i]!.headers, [TRACE_HEADER]: request.traceId },
          };
        }),
      );
    } finally {
      for (const { span } of traces) span.end();
    }
    this.emitted += sendable.length;
    this.options.onHandedOut?.(sendable);
    return chosen.length >= room;
  }

  /** Jobs with a page budget: only their first visits are counted. */
  private budgetedJobs(): Set<string> {
    return new Set(
      this.options.jobs
        .list()
        .filter((job) => job.maxPages > 0)
        .map((job) => job.id),
    );
  }

  /** The shared counters as they stand, so this round admits first visits on what every scheduler handed out. */
  private async readBudgets(): Promise<void> {
    const budgeted = this.budgetedJobs();
    if (budgeted.size === 0) return;
    const shared = await this.options.linkbase.getCounters(PAGE_COUNTERS);
    for (const jobId of budgeted) this.budgetUsed.set(jobId, shared[jobId] ?? this.budgetSeed[jobId] ?? 0);
  }

  /**
   * Reserves the round's first visits in the shared counters (compare-and-set), at most what each
   * job's budget has left: two schedulers that picked from the same counts cannot both spend the
   * last pages. Returns the records to lease: every re-crawl, and the first visits granted.
   */
  private async reserveFirstVisits(chosen: LinkRecord[]): Promise<LinkRecord[]> {
    const wanted = this.countFirstVisits(chosen);
    if (wanted.size === 0) return chosen;
    const granted = new Map<string, number>();
    const stored = await this.options.linkbase.updateCounters(PAGE_COUNTERS, (current) => {
      const next = { ...current };
      for (const [jobId, count] of wanted) {
        const used = current[jobId] ?? this.budgetSeed[jobId] ?? 0;
        const grant = Math.max(0, Math.min(count, this.options.jobs.get(jobId).maxPages - used));
        granted.set(jobId, grant);
        next[jobId] = used + grant;
      }
      return next;
    });
    for (const jobId of wanted.keys()) this.budgetUsed.set(jobId, stored[jobId]!);
    return chosen.filter((record) => {
      if (!this.isBudgeted(record)) return true;
      const left = granted.get(record.jobId)!;
      granted.set(record.jobId, left - 1);
      return left > 0;
    });
  }

  /** First visits reserved but not handed out (no longer due, or given up on) go back to their budget. */
  private async returnFirstVisits(granted: LinkRecord[], sent: LinkRecord[]): Promise<void> {
    const unused = this.countFirstVisits(granted);
    for (const [jobId, count] of this.countFirstVisits(sent)) unused.set(jobId, unused.get(jobId)! - count);
    for (const [jobId, count] of unused) if (count === 0) unused.delete(jobId);
    if (unused.size === 0) return;
    const stored = await this.options.linkbase.updateCounters(PAGE_COUNTERS, (current) => {
      const next = { ...current };
      for (const [jobId, count] of unused) next[jobId] = Math.max(0, (current[jobId] ?? 0) - count);
      return next;
    });
    for (const jobId of unused.keys()) this.budgetUsed.set(jobId, stored[jobId]!);
  }

  private isBudgeted(record: LinkRecord): boolean {
    return record.fetchCount === 0 && this.options.jobs.get(record.jobId).maxPages > 0;
  }

  private countFirstVisits(records: readonly LinkRecord[]): Map<string, number> {
    const counts = new Map<string, number>();
    for (const record of records)
      if (this.isBudgeted(record)) counts.set(record.jobId, (counts.get(record.jobId) ?? 0) + 1);
    return counts;
  }

  /** URLs of the queue this round may take: the round cap, the in-flight cap and the minimum delay, tightened by politeness overrides. */
  private hostAllowance(queueKey: string, now: number): number {
    const overrides = this.politenessOf(queueKey);
    if ((this.nextAllowed.get(queueKey) ?? 0) > now) return 0;
    const perRound = Math.min(
      this.options.perHostPerRound,
      overrides.perRound ?? Infinity,
      overrides.minDelayMs ? 1 : Infinity,
    );
    const inFlightRoom =
      Math.min(this.options.maxInFlightPerHost, overrides.maxInFlight ?? Infinity) - (this.perHost.get(queueKey) ?? 0);
    return Math.max(0, Math.min(perRound, inFlightRoom));
  }

  private politenessOf(queueKey: string): HostPoliteness {
    if (!this.overridesExist) return NO_OVERRIDES;
    let found = this.politeness.get(queueKey);
    if (!found) {
      // Bounded: a crawl of millions of hosts must not keep one entry per host.
      if (this.politeness.size >= MAX_CACHED_POLITENESS) this.politeness.clear();
      this.politeness.set(queueKey, (found = hostPoliteness(this.options.jobs.list(), queueKey)));
    }
    return found;
  }

  /** A URL whose leases keep running out without any answer is failed instead of retried forever. */
  private async giveUpOn(records: LinkRecord[], now: number): Promise<void> {
    this.poisoned += records.length;
    this.options.logger.warn(
      { urls: records.slice(0, 5).map((record) => record.url), count: records.length },
      'URLs lost their lease too often; marked failed',
    );
    await this.options.linkbase.update(
      records.map((record) => record.id),
      (record) =>
        withNextFetch(
          {
            ...record,
            status: 'error',
            leaseUntil: 0,
            lastOutcome: 'processing_failed',
            errorCode: ErrorCode.LEASE_EXPIRED,
          },
          fetchNever,
          now,
        ),
    );
  }

  private forgetExpired(now: number): void {
    for (const [id, entry] of this.inFlight) if (entry.until <= now) this.answered(id);
    for (const [queueKey, at] of this.nextAllowed) if (at <= now) this.nextAllowed.delete(queueKey);
  }
}

function toRequest(record: LinkRecord, now: number, until: number, traceId: string): FrontierRequest {
  return {
    url: record.url,
    urlId: record.id,
    host: record.host,
    queueKey: record.queueKey,
    depth: record.depth,
    jobId: record.jobId,
    traceId,
    attempt: record.consecutiveFailures,
    scheduledAt: now,
    leaseUntil: until,
    trafficClass: record.trafficClass,
    etag: record.etag,
    lastModified: record.lastModified,
    previousDigest: record.digest,
    meta: {},
  };
}
