import { statusUpdate, type LinkRecord, type StatusUpdate } from '@crawler/core';
import { applyStatus, type StatusPolicy } from '@crawler/scheduler';

/** What a re-crawl policy learns from one fetch, and when it wants the page again. */
export interface RecrawlPolicyState {
  /** The next fetch time, epoch ms. */
  readonly nextFetchAt: number;
  /** The link base record, for policies that keep one (the scheduler's). */
  readonly record?: LinkRecord;
  /** Applies a fetch at `at` that saw a change or not; `lastModified` is the page's header, if it sends one. */
  fetched(at: number, changed: boolean, lastModified: string | null): RecrawlPolicyState;
}

export interface Bounds {
  initialIntervalMs: number;
  minIntervalMs: number;
  maxIntervalMs: number;
}

/**
 * Nutch's AdaptiveFetchSchedule with its defaults: the interval shrinks by DEC_RATE (0.2) when the
 * page changed and grows by INC_RATE (0.2) when it did not, and SYNC_DELTA (on, rate 0.2) moves the
 * next fetch back towards the last change it saw.
 */
export function nutchAdaptive(bounds: Bounds, start: number): RecrawlPolicyState {
  const state = (interval: number, modifiedAt: number, nextFetchAt: number): RecrawlPolicyState => ({
    nextFetchAt,
    fetched(at, changed) {
      let next = changed ? interval * 0.8 : interval * 1.2;
      const modified = changed ? at : modifiedAt;
      const delta = at - modified;
      if (delta > next) next = delta;
      next = Math.min(bounds.maxIntervalMs, Math.max(bounds.minIntervalMs, next));
      return state(next, modified, at - Math.round(delta * 0.2) + next);
    },
  });
  return state(bounds.initialIntervalMs, start, start + bounds.initialIntervalMs);
}

/**
 * StormCrawler's AdaptiveScheduler with its default rates (0.5): a change moves the interval half
 * way towards the minimum, no change multiplies it by 1.5, up to the maximum.
 */
export function stormcrawlerAdaptive(bounds: Bounds, start: number): RecrawlPolicyState {
  const state = (interval: number, nextFetchAt: number): RecrawlPolicyState => ({
    nextFetchAt,
    fetched(at, changed) {
      const next = changed
        ? 0.5 * interval + 0.5 * bounds.minIntervalMs
        : Math.min(bounds.maxIntervalMs, interval * 1.5);
      return state(next, at + next);
    },
  });
  return state(bounds.initialIntervalMs, start + bounds.initialIntervalMs);
}

/**
 * The scheduler's own policy, through the code the status stage runs (applyStatus): each fetch is
 * an `ok` status with dedup's decision, or a 304 from hosts that answer conditional requests.
 */
export function poissonAdaptive(policy: StatusPolicy, record: LinkRecord, validators: boolean): RecrawlPolicyState {
  const state = (current: LinkRecord): RecrawlPolicyState => ({
    nextFetchAt: current.nextFetchAt,
    record: current,
    fetched(at, changed, lastModified) {
      const base = fetchStatus(current, at, lastModified);
      const status: StatusUpdate =
        !changed && validators
          ? { ...base, outcome: 'not_modified', httpStatus: 304 }
          : {
              ...base,
              outcome: 'ok',
              httpStatus: 200,
              change: changed ? 'changed' : 'unchanged',
              digest: changed ? `${current.id}@${at}` : current.digest,
            };
      return state(applyStatus({ ...current, leaseUntil: at }, status, at, policy));
    },
  });
  return state(record);
}

/** A 200 answer for a simulated fetch of `record` at `at`, before any decision about its content. */
export function fetchStatus(record: LinkRecord, at: number, lastModified: string | null): StatusUpdate {
  return statusUpdate(
    {
      url: record.url,
      urlId: record.id,
      host: record.host,
      queueKey: record.queueKey,
      depth: record.depth,
      jobId: record.jobId,
      traceId: 'simulation',
    },
    { outcome: 'ok', httpStatus: 200, fetchedAt: at, lastModified },
  );
}
