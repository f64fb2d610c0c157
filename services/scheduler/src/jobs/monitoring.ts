import { fetchNow, withNextFetch, type LinkBase, type LinkRecord, type Logger } from '@crawler/core';
import type { JobRegistry } from './job-registry.js';
import { givenUrlRecord } from './job-seeds.js';

const MONITORED_STATUSES = new Set(['queued', 'fetched', 'error']);

/** Start of the period of length `every` that contains `now` (periods are aligned to the epoch, so restarts agree). */
export function periodStart(now: number, every: number): number {
  return Math.floor(now / every) * every;
}

/**
 * A monitored URL not seen in the current period and not due before the period ends becomes due
 * now, as freshness traffic at the top level. Gone and blocked URLs stay stopped; a URL in flight
 * or waiting for a retry is left alone.
 */
export function monitorRecord(record: LinkRecord, start: number, now: number): LinkRecord | null {
  if (!MONITORED_STATUSES.has(record.status) || record.leaseUntil > now || record.nextFetchAt <= now) return null;
  if (record.lastSeenAt !== null && record.lastSeenAt >= start) return null;
  return withNextFetch({ ...record, trafficClass: 'freshness', level: 0 }, fetchNow, now);
}

/**
 * Runs the jobs' schedules ("these URLs every hour"): in every period each monitored URL is fetched
 * at least once, whatever its re-crawl plan says. Checked on every call; a schedule is acted on once
 * per period (and again after a restart, harmlessly: the check above is idempotent).
 */
export class MonitoringSchedules {
  private readonly done = new Map<string, number>();

  constructor(
    private readonly jobs: JobRegistry,
    private readonly linkbase: LinkBase,
    private readonly log: Logger,
    private readonly isPaused: (jobId: string) => boolean,
    private readonly random: () => number = Math.random,
  ) {}

  /** Returns how many URLs were made due. */
  async run(now: number): Promise<number> {
    let touched = 0;
    for (const job of this.jobs.list()) {
      if (this.isPaused(job.id)) continue;
      for (const [index, schedule] of job.schedules.entries()) {
        const key = `${job.id}#${index}`;
        const start = periodStart(now, schedule.every);
        if (this.done.get(key) === start) continue;
        const urls = schedule.urls.length > 0 ? schedule.urls : job.seeds;
        const records = urls
          .map((url) => givenUrlRecord(job, url, 'seed', now, this.random))
          .filter((record) => record !== null);
        const known = await this.linkbase.getMany(records.map((record) => record.id));
        const missing = records
          .filter((record) => !known.has(record.id))
          .map((record) => ({ ...record, trafficClass: 'freshness', level: 0 }));
        if (missing.length > 0) touched += (await this.linkbase.insertNew(missing)).length;
        touched += (await this.linkbase.update([...known.keys()], (record) => monitorRecord(record, start, now)))
          .length;
        this.done.set(key, start);
      }
    }
    if (touched > 0) this.log.info({ urls: touched }, 'monitored URLs due for their period');
    return touched;
  }
}
