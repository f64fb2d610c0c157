import {
  backoffMs,
  ErrorCode,
  fetchAfter,
  fetchNever,
  withNextFetch,
  type LinkRecord,
  type StatusUpdate,
} from '@crawler/core';
import { appendObservations, fetchObservations } from './policy/change-observations.js';
import { decayYield } from './policy/link-yield.js';
import { recrawlPlan, type RecrawlPolicy } from './policy/recrawl-plan.js';

export interface StatusPolicy extends RecrawlPolicy {
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxMs: number;
  random?: () => number;
}

/** Outcomes after which another attempt soon may succeed. */
export const RETRIABLE_OUTCOMES = new Set([
  'throttled',
  'server_error',
  'timeout',
  'connection_refused',
  'network_error',
  'dns_failure',
  'processing_failed',
]);
/** Outcomes after which the URL is never scheduled again. */
const FINAL: Record<string, LinkRecord['status']> = {
  gone: 'gone',
  blocked_robots: 'blocked',
  blocked_address: 'blocked',
};

/**
 * The link base record after one fetch outcome: its status, validators, digest, failure count
 * and when it is due next. Gone and blocked URLs are never due again; passing failures back off
 * exponentially until the attempt budget is spent, then wait for the next re-crawl. A page whose
 * content came back adds to its change history, and its re-crawl follows the estimated change
 * rate (recrawl-plan.ts). Times are the scheduler's clock, `now`, the one every interval is
 * measured on.
 */
export function applyStatus(record: LinkRecord, status: StatusUpdate, now: number, policy: StatusPolicy): LinkRecord {
  const random = policy.random ?? Math.random;
  const base: LinkRecord = {
    ...record,
    leaseUntil: 0,
    fetchCount: record.fetchCount + 1,
    lastFetchAt: now,
    lastOutcome: status.outcome,
    httpStatus: status.httpStatus,
    errorCode: status.errorCode,
    rank: random(),
  };
  // A fetcher whose queue for the host was full handed the URL back unfetched: not an attempt.
  if (status.errorCode === ErrorCode.FETCHER_QUEUE_FULL)
    return withNextFetch({ ...record, leaseUntil: 0 }, fetchAfter(status.retryAfterMs ?? policy.retryBaseMs), now);
  const recrawl = fetchAfter(policy.initialIntervalMs);
  const final = FINAL[status.outcome];
  if (final) return withNextFetch({ ...base, status: final }, fetchNever, now);

  switch (status.outcome) {
    case 'ok':
    case 'noindex': {
      const duplicate = status.change === 'duplicate' || status.change === 'near_duplicate';
      if (duplicate)
        return withNextFetch(
          {
            ...base,
            status: 'duplicate',
            duplicateOf: status.duplicateOf,
            digest: status.digest ?? record.digest,
            consecutiveFailures: 0,
          },
          recrawl,
          now,
        );
      const changed = contentChanged(record, status);
      const seen: LinkRecord = {
        ...base,
        status: 'fetched',
        duplicateOf: null,
        digest: status.digest ?? record.digest,
        etag: status.etag,
        lastModified: status.lastModified,
        lastChangeAt: changed !== false ? now : record.lastChangeAt,
        consecutiveFailures: 0,
      };
      return reschedule(seen, record, changed, status.lastModified, now, policy);
    }
    case 'not_modified': {
      const seen: LinkRecord = {
        ...base,
        status: 'fetched',
        etag: status.etag ?? record.etag,
        lastModified: status.lastModified ?? record.lastModified,
        consecutiveFailures: 0,
      };
      return reschedule(seen, record, false, null, now, policy);
    }
    case 'redirect':
      return withNextFetch(
        { ...base, status: 'redirect', redirectTo: status.redirectTo, consecutiveFailures: 0 },
        recrawl,
        now,
      );
  }
  // A failure of an attempt already counted (a status redelivered after a scheduler restart, or a
  // second fetch of one hand-out after its lease ran out) changes nothing: counting it twice spends the budget.
  if (status.attempt < record.consecutiveFailures) return record;
  const failures = record.consecutiveFailures + 1;
  if (RETRIABLE_OUTCOMES.has(status.outcome) && status.retriable !== false && failures < policy.maxAttempts) {
    const wait = Math.max(status.retryAfterMs ?? 0, backoffMs(failures, policy.retryBaseMs, policy.retryMaxMs, random));
    return withNextFetch({ ...base, status: 'retry', consecutiveFailures: failures }, fetchAfter(wait), now);
  }
  return withNextFetch({ ...base, status: 'error', consecutiveFailures: failures }, recrawl, now);
}

/**
 * Whether the content differs from what was last seen; null when there is nothing to compare
 * (a first fetch). Dedup's decision, or the digests when dedup says "new" for a page seen before
 * (its fingerprint expired).
 */
function contentChanged(previous: LinkRecord, status: StatusUpdate): boolean | null {
  if (status.change === 'changed') return true;
  if (status.change === 'unchanged') return false;
  if (previous.lastSeenAt === null || previous.digest === null || status.digest === null) return null;
  return status.digest !== previous.digest;
}

/** Adds what this fetch showed to the change history and plans the next visit from it. */
function reschedule(
  seen: LinkRecord,
  previous: LinkRecord,
  changed: boolean | null,
  lastModified: string | null,
  now: number,
  policy: StatusPolicy,
): LinkRecord {
  const modifiedAt = lastModified ? Date.parse(lastModified) : Number.NaN;
  const observed = fetchObservations({
    at: now,
    previousAt: previous.lastSeenAt,
    changed,
    lastModifiedAt: Number.isFinite(modifiedAt)
      ? modifiedAt
      : previous.lastSeenAt === null
        ? previous.sitemapLastmod
        : null,
  });
  const next: LinkRecord = {
    ...seen,
    lastSeenAt: now,
    linkYield: decayYield(previous.linkYield),
    changeHistory: appendObservations(previous.changeHistory, observed),
  };
  const plan = recrawlPlan(next, policy);
  return withNextFetch(
    {
      ...next,
      changeRate: plan.changeRate,
      value: plan.value,
      priority: plan.priority,
      level: plan.level,
      trafficClass: plan.trafficClass,
    },
    fetchAfter(plan.intervalMs),
    now,
  );
}
