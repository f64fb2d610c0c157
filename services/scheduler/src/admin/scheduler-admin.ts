import {
  canonicalUrl,
  ConfigError,
  jobCanonicalizeOptions,
  parseCrawlJob,
  linkRecordId,
  type CrawlJob,
  type LinkBase,
  type LinkBaseStats,
  type LinkRecord,
  type Logger,
  ErrorCode,
} from '@crawler/core';
import type { ControlState } from '../control-state.js';
import type { FrontierEmitter } from '../frontier-emitter.js';
import type { JobRegistry } from '../jobs/job-registry.js';
import { givenUrlRecord, jobStartRecords } from '../jobs/job-seeds.js';
import { AdminRequestError } from './admin-errors.js';

/** Most seeds one request may add. */
export const MAX_SEEDS_PER_REQUEST = 10_000;

export interface JobSummary {
  id: string;
  seeds: number;
  schedules: { every: number; urls: number }[];
  sitemaps: number;
  maxPages: number;
  paused: boolean;
  fromJobFile: boolean;
}

export interface QueueStatistics extends LinkBaseStats {
  inFlight: number;
  inFlightByQueue: { queueKey: string; inFlight: number }[];
  paused: { jobs: string[]; queues: string[] };
}

export interface SchedulerAdminDeps {
  linkbase: LinkBase;
  jobs: JobRegistry;
  control: ControlState;
  emitter: FrontierEmitter;
  log: Logger;
  now: () => number;
  random: () => number;
  /** Counts URLs an operator added, for the discovered counter. */
  onInserted(count: number): void;
}

/**
 * What the admin API can do, independent of HTTP: add a job or seeds, pause and resume a job or a
 * queue (host), show one URL's record, show queue statistics. Every change is logged.
 */
export class SchedulerAdmin {
  constructor(private readonly deps: SchedulerAdminDeps) {}

  listJobs(): JobSummary[] {
    return this.deps.jobs.list().map((job) => ({
      id: job.id,
      seeds: job.seeds.length,
      schedules: job.schedules.map((schedule) => ({ every: schedule.every, urls: schedule.urls.length })),
      sitemaps: job.sitemaps.length,
      maxPages: job.maxPages,
      paused: this.deps.control.isJobPaused(job.id),
      fromJobFile: job.id === this.deps.jobs.defaultJob.id,
    }));
  }

  /** Adds (or replaces) a job given as crawl job JSON; its seeds, sitemaps and monitored URLs enter the link base. */
  async addJob(raw: unknown): Promise<{ id: string; inserted: number }> {
    let job: CrawlJob;
    try {
      job = parseCrawlJob(raw, 'crawl job');
    } catch (error) {
      if (error instanceof ConfigError)
        throw new AdminRequestError(ErrorCode.ADMIN_BAD_REQUEST, error.message, { cause: error });
      throw error;
    }
    if (job.id === this.deps.jobs.defaultJob.id)
      throw new AdminRequestError(
        ErrorCode.ADMIN_CONFLICT,
        `job "${job.id}" is the scheduler's job file; give the new job another id`,
      );
    await this.deps.control.saveJob(raw as { id: string });
    this.deps.jobs.add(job);
    this.deps.emitter.jobsChanged();
    const inserted = await this.deps.linkbase.insertNew(jobStartRecords(job, this.deps.now(), this.deps.random));
    this.deps.onInserted(inserted.length);
    this.deps.log.info({ job: job.id, seeds: job.seeds.length, inserted: inserted.length }, 'crawl job added');
    return { id: job.id, inserted: inserted.length };
  }

  async addSeeds(jobId: string, urls: unknown): Promise<{ inserted: number; known: number; invalid: string[] }> {
    const job = this.requireJob(jobId);
    if (!Array.isArray(urls) || urls.some((url) => typeof url !== 'string'))
      throw new AdminRequestError(ErrorCode.ADMIN_BAD_REQUEST, 'body must be {"urls": ["http://...", ...]}');
    if (urls.length > MAX_SEEDS_PER_REQUEST)
      throw new AdminRequestError(
        ErrorCode.ADMIN_BAD_REQUEST,
        `at most ${MAX_SEEDS_PER_REQUEST} seeds per request, got ${urls.length}`,
      );
    const now = this.deps.now();
    const invalid: string[] = [];
    const records = new Map<string, LinkRecord>();
    for (const url of urls as string[]) {
      const record = givenUrlRecord(job, url, 'seed', now, this.deps.random);
      if (record) records.set(record.id, record);
      else invalid.push(url);
    }
    const inserted = await this.deps.linkbase.insertNew([...records.values()]);
    this.deps.onInserted(inserted.length);
    this.deps.log.info(
      { job: job.id, inserted: inserted.length, known: records.size - inserted.length, invalid: invalid.length },
      'seeds added',
    );
    return { inserted: inserted.length, known: records.size - inserted.length, invalid };
  }

  async setJobPaused(jobId: string, paused: boolean): Promise<{ pausedJobs: string[] }> {
    this.requireJob(jobId);
    const control = await this.deps.control.setJobPaused(jobId, paused);
    this.deps.log.info({ job: jobId, paused }, paused ? 'job paused' : 'job resumed');
    return { pausedJobs: control.pausedJobs };
  }

  /** A queue is a host (the politeness key); pausing one keeps its URLs in the link base, untouched. */
  async setQueuePaused(queueKey: string, paused: boolean): Promise<{ pausedQueues: string[] }> {
    if (!queueKey || queueKey.length > 300)
      throw new AdminRequestError(ErrorCode.ADMIN_BAD_REQUEST, 'name a host, as host or host:port');
    const control = await this.deps.control.setQueuePaused(queueKey.toLowerCase(), paused);
    this.deps.log.info({ queue: queueKey, paused }, paused ? 'host paused' : 'host resumed');
    return { pausedQueues: control.pausedQueues };
  }

  /** The default job's record of one URL, canonicalized as that job does. */
  async record(url: string): Promise<LinkRecord> {
    const canonical = canonicalUrl(url, undefined, jobCanonicalizeOptions(this.deps.jobs.defaultJob));
    if (!canonical) throw new AdminRequestError(ErrorCode.ADMIN_BAD_REQUEST, `not an http(s) URL: ${url}`);
    const id = linkRecordId(this.deps.jobs.defaultJob.id, canonical);
    const record = (await this.deps.linkbase.getMany([id])).get(id);
    if (!record) throw new AdminRequestError(ErrorCode.ADMIN_NOT_FOUND, `the link base does not know ${canonical}`);
    return record;
  }

  async statistics(): Promise<QueueStatistics> {
    const stats = await this.deps.linkbase.stats(this.deps.now(), { due: true });
    const control = this.deps.control.current;
    return {
      ...stats,
      inFlight: this.deps.emitter.inFlightCount,
      inFlightByQueue: this.deps.emitter.inFlightByQueue(),
      paused: { jobs: control.pausedJobs, queues: control.pausedQueues },
    };
  }

  private requireJob(jobId: string): CrawlJob {
    if (!this.deps.jobs.has(jobId))
      throw new AdminRequestError(ErrorCode.ADMIN_NOT_FOUND, `no crawl job "${jobId}" (see GET /jobs)`);
    return this.deps.jobs.get(jobId);
  }
}
