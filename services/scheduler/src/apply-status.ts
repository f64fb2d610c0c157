import { backoffMs, type LinkRecord, type StatusUpdate } from '@crawler/core';

export interface StatusPolicy {
  recrawlIntervalMs: number;
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxMs: number;
  random?: () => number;
}

/** Outcomes after which another attempt soon may succeed. */
export const RETRIABLE_OUTCOMES = new Set(['throttled', 'server_error', 'timeout', 'connection_refused', 'network_error', 'dns_failure', 'processing_failed']);
/** Outcomes after which the URL is never scheduled again. */
const FINAL: Record<string, LinkRecord['status']> = { gone: 'gone', blocked_robots: 'blocked', blocked_address: 'blocked' };
export const NEVER = Number.MAX_SAFE_INTEGER;

/**
 * The link base record after one fetch outcome: its status, validators, digest, failure count
 * and when it is due next. Gone and blocked URLs are never due again; passing failures back off
 * exponentially until the attempt budget is spent, then wait for the next re-crawl.
 */
export function applyStatus(record: LinkRecord, status: StatusUpdate, now: number, policy: StatusPolicy): LinkRecord {
  const base: LinkRecord = {
    ...record,
    leaseUntil: 0,
    fetchCount: record.fetchCount + 1,
    lastFetchAt: status.fetchedAt,
    lastOutcome: status.outcome,
    httpStatus: status.httpStatus,
    errorCode: status.errorCode,
  };
  // A fetcher whose queue for the host was full handed the URL back unfetched: not an attempt.
  if (status.errorCode === 'FETCHER_QUEUE_FULL') return { ...record, leaseUntil: 0, nextFetchAt: now + (status.retryAfterMs ?? policy.retryBaseMs) };
  const recrawlAt = now + policy.recrawlIntervalMs;
  const final = FINAL[status.outcome];
  if (final) return { ...base, status: final, nextFetchAt: NEVER };

  switch (status.outcome) {
    case 'ok':
    case 'noindex': {
      const changed = status.change === 'new' || status.change === 'changed';
      const duplicate = status.change === 'duplicate' || status.change === 'near_duplicate';
      return {
        ...base,
        status: duplicate ? 'duplicate' : 'fetched',
        duplicateOf: duplicate ? status.duplicateOf : null,
        digest: status.digest ?? record.digest,
        etag: status.etag,
        lastModified: status.lastModified,
        lastChangeAt: changed ? status.fetchedAt : record.lastChangeAt,
        consecutiveFailures: 0,
        nextFetchAt: recrawlAt,
      };
    }
    case 'not_modified':
      return { ...base, status: 'fetched', etag: status.etag ?? record.etag, lastModified: status.lastModified ?? record.lastModified, consecutiveFailures: 0, nextFetchAt: recrawlAt };
    case 'redirect':
      return { ...base, status: 'redirect', redirectTo: status.redirectTo, consecutiveFailures: 0, nextFetchAt: recrawlAt };
  }
  const failures = record.consecutiveFailures + 1;
  if (RETRIABLE_OUTCOMES.has(status.outcome) && status.retriable !== false && failures < policy.maxAttempts) {
    const wait = Math.max(status.retryAfterMs ?? 0, backoffMs(failures, policy.retryBaseMs, policy.retryMaxMs, policy.random));
    return { ...base, status: 'retry', consecutiveFailures: failures, nextFetchAt: now + wait };
  }
  return { ...base, status: 'error', consecutiveFailures: failures, nextFetchAt: recrawlAt };
}
