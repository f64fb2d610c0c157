import { randomUUID } from 'node:crypto';
import { Schemas, Topics, TRACE_HEADER, type BusProducer, type Codec, type CrawlJob, type FrontierRequest, type LinkBase, type LinkRecord, type Logger } from '@crawler/core';
import { NEVER } from './apply-status.js';

export interface FrontierEmitterOptions {
  linkbase: LinkBase;
  producer: BusProducer;
  codec: Codec;
  job: CrawlJob;
  logger: Logger;
  tickMs: number;
  batchSize: number;
  perHostPerRound: number;
  maxInFlight: number;
  maxInFlightPerHost: number;
  leaseMs: number;
  maxLeaseExpiries: number;
  topicPrefix?: string;
  now?: () => number;
}

/**
 * Hands due URLs to the fetchers: each round takes due URLs from the link base (per host, in
 * crawl order), leases them, and publishes them on crawl.frontier keyed by politeness key.
 * In-flight URLs are bounded in all and per host, so the frontier topic never floods.
 */
export class FrontierEmitter {
  private readonly inFlight = new Map<string, { queueKey: string; until: number }>();
  private readonly perHost = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private round: Promise<void> = Promise.resolve();
  private budgetUsed: number;
  emitted = 0;
  poisoned = 0;

  constructor(private readonly options: FrontierEmitterOptions, alreadyHandedOut = 0) {
    this.budgetUsed = alreadyHandedOut;
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

  /** A URL was answered: its slot is free. */
  answered(urlId: string): void {
    const entry = this.inFlight.get(urlId);
    if (!entry) return;
    this.inFlight.delete(urlId);
    const count = (this.perHost.get(entry.queueKey) ?? 1) - 1;
    if (count <= 0) this.perHost.delete(entry.queueKey);
    else this.perHost.set(entry.queueKey, count);
  }

  get inFlightCount(): number {
    return this.inFlight.size;
  }

  /** True once the job's page budget is spent. */
  get budgetSpent(): boolean {
    return this.options.job.maxPages > 0 && this.budgetUsed >= this.options.job.maxPages;
  }

  private schedule(delayMs: number): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.round = this.runRound()
        .catch((error: unknown) => this.options.logger.error({ err: (error as Error).message }, 'frontier round failed; retrying next round'))
        .then((full) => this.schedule(full === true ? 0 : this.options.tickMs));
    }, delayMs);
  }

  /** One round; true when it was cut short by the batch size (more is due right now). */
  async runRound(): Promise<boolean> {
    const now = (this.options.now ?? Date.now)();
    this.forgetExpired(now);
    const room = Math.min(this.options.batchSize, this.options.maxInFlight - this.inFlight.size);
    if (room <= 0) return false;
    const due = await this.options.linkbase.findDue({ now, limit: room, perQueueLimit: this.options.perHostPerRound });
    const chosen: LinkRecord[] = [];
    const hostCounts = new Map<string, number>();
    let firstVisits = 0;
    for (const record of due) {
      if (this.inFlight.has(record.id)) continue;
      const hostLoad = (this.perHost.get(record.queueKey) ?? 0) + (hostCounts.get(record.queueKey) ?? 0);
      if (hostLoad >= this.options.maxInFlightPerHost) continue;
      const firstVisit = record.fetchCount === 0;
      if (firstVisit && this.options.job.maxPages > 0 && this.budgetUsed + firstVisits >= this.options.job.maxPages) continue;
      if (firstVisit) firstVisits++;
      hostCounts.set(record.queueKey, (hostCounts.get(record.queueKey) ?? 0) + 1);
      chosen.push(record);
    }
    if (chosen.length === 0) return false;
    const until = now + this.options.leaseMs;
    const leased = await this.options.linkbase.lease(chosen.map((record) => record.id), until, now);
    const poisoned = leased.filter((record) => record.leaseExpiries > this.options.maxLeaseExpiries);
    if (poisoned.length > 0) await this.giveUpOn(poisoned);
    const sendable = leased.filter((record) => record.leaseExpiries <= this.options.maxLeaseExpiries);
    for (const record of sendable) {
      this.inFlight.set(record.id, { queueKey: record.queueKey, until });
      this.perHost.set(record.queueKey, (this.perHost.get(record.queueKey) ?? 0) + 1);
      if (record.fetchCount === 0) this.budgetUsed++;
    }
    await this.options.producer.send(
      (this.options.topicPrefix ?? '') + Topics.frontier,
      sendable.map((record) => {
        const request = toRequest(record, now, until);
        // The trace id also travels as a header, as on every message the stage runners produce.
        return { key: record.queueKey, value: this.options.codec.encode(Schemas.FrontierRequest, request), headers: { [TRACE_HEADER]: request.traceId } };
      }),
    );
    this.emitted += sendable.length;
    return due.length >= room;
  }

  /** A URL whose leases keep running out without any answer is failed instead of retried forever. */
  private async giveUpOn(records: LinkRecord[]): Promise<void> {
    this.poisoned += records.length;
    this.options.logger.warn({ urls: records.slice(0, 5).map((record) => record.url), count: records.length }, 'URLs lost their lease too often; marked failed');
    await this.options.linkbase.update(
      records.map((record) => record.id),
      (record) => ({ ...record, status: 'error', leaseUntil: 0, lastOutcome: 'processing_failed', errorCode: 'LEASE_EXPIRED', nextFetchAt: NEVER }),
    );
  }

  private forgetExpired(now: number): void {
    for (const [id, entry] of this.inFlight) if (entry.until <= now) this.answered(id);
  }
}

function toRequest(record: LinkRecord, now: number, until: number): FrontierRequest {
  return {
    url: record.url,
    urlId: record.id,
    host: record.host,
    queueKey: record.queueKey,
    depth: record.depth,
    jobId: record.jobId,
    traceId: randomUUID(),
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
