import { NEVER_DUE, Schemas } from '@crawler/core';
import type { StatusUpdate } from '@crawler/core';
import { makeLinkRecord, sampleMessages } from '@crawler/core/testing';
import { describe, expect, it } from 'vitest';
import { applyStatus } from './apply-status.js';

const DAY = 86_400_000;
const policy = {
  initialIntervalMs: DAY,
  minIntervalMs: 3_600_000,
  maxIntervalMs: 30 * DAY,
  targetProbability: 0.5,
  hubBoost: 3,
  maxAttempts: 3,
  retryBaseMs: 1000,
  retryMaxMs: 60_000,
  random: () => 0.5,
};
const now = 1_000_000;
const status = (fields: Partial<StatusUpdate>): StatusUpdate => ({
  ...sampleMessages[Schemas.StatusUpdate],
  change: null,
  digest: null,
  etag: null,
  ...fields,
});

describe('applyStatus', () => {
  const record = makeLinkRecord('http://a.test/', { leaseUntil: now + 5000, digest: 'old' });

  it('stores a fetched page with its digest and validators and schedules the first re-crawl after the job interval', () => {
    const next = applyStatus(
      record,
      status({ outcome: 'ok', change: 'new', digest: 'new', etag: '"e"', lastModified: null, fetchedAt: now }),
      now,
      policy,
    );
    expect(next).toMatchObject({
      status: 'fetched',
      digest: 'new',
      etag: '"e"',
      leaseUntil: 0,
      fetchCount: 1,
      lastChangeAt: now,
      lastSeenAt: now,
      nextFetchAt: now + DAY,
      changeHistory: [],
      trafficClass: 'update',
    });
    expect(next.priority).toBeCloseTo(0.5 * next.value);
  });

  it('learns from re-fetches: a page that keeps changing comes back sooner than one that never does', () => {
    let busy = applyStatus(
      record,
      status({ outcome: 'ok', change: 'new', digest: 'd0', lastModified: null }),
      now,
      policy,
    );
    let quiet = busy;
    for (let i = 1; i <= 4; i++) {
      const at = now + i * DAY;
      busy = applyStatus(
        busy,
        status({ outcome: 'ok', change: 'changed', digest: `d${i}`, lastModified: null }),
        at,
        policy,
      );
      quiet = applyStatus(quiet, status({ outcome: 'not_modified', httpStatus: 304, lastModified: null }), at, policy);
    }
    expect(busy.changeHistory).toEqual(Array.from({ length: 4 }, () => ({ ms: DAY, changed: true })));
    expect(quiet.changeHistory.every((observation) => !observation.changed)).toBe(true);
    expect(busy.nextFetchAt - busy.lastSeenAt!).toBeLessThan(DAY / 2);
    expect(quiet.nextFetchAt - quiet.lastSeenAt!).toBeGreaterThan(3 * DAY);
    expect(busy.changeRate!).toBeGreaterThan(quiet.changeRate! * 5);
    expect(busy.trafficClass).toBe('freshness');
  });

  it('tells a change by the digests when dedup calls a page seen before new (its fingerprint expired)', () => {
    const seen = applyStatus(record, status({ outcome: 'ok', change: 'new', digest: 'd0' }), now, policy);
    expect(
      applyStatus(seen, status({ outcome: 'ok', change: 'new', digest: 'd0' }), now + DAY, policy).changeHistory,
    ).toEqual([{ ms: DAY, changed: false }]);
    expect(
      applyStatus(seen, status({ outcome: 'ok', change: 'new', digest: 'd1' }), now + DAY, policy).changeHistory,
    ).toEqual([{ ms: DAY, changed: true }]);
  });

  it('decays the link yield with each fetch of the content', () => {
    expect(
      applyStatus({ ...record, linkYield: 10 }, status({ outcome: 'not_modified', httpStatus: 304 }), now, policy)
        .linkYield,
    ).toBeCloseTo(7);
  });

  it('marks duplicates and keeps the old change time for unchanged pages', () => {
    expect(
      applyStatus(record, status({ outcome: 'ok', change: 'duplicate', duplicateOf: 'http://b.test/' }), now, policy),
    ).toMatchObject({ status: 'duplicate', duplicateOf: 'http://b.test/' });
    const unchanged = applyStatus(
      { ...record, lastChangeAt: 5 },
      status({ outcome: 'ok', change: 'unchanged', digest: 'old' }),
      now,
      policy,
    );
    expect(unchanged).toMatchObject({ status: 'fetched', lastChangeAt: 5 });
  });

  it('never schedules gone or blocked URLs again', () => {
    expect(applyStatus(record, status({ outcome: 'gone', httpStatus: 410 }), now, policy)).toMatchObject({
      status: 'gone',
      nextFetchAt: NEVER_DUE,
    });
    expect(applyStatus(record, status({ outcome: 'blocked_robots' }), now, policy)).toMatchObject({
      status: 'blocked',
      nextFetchAt: NEVER_DUE,
    });
  });

  it('backs off passing failures exponentially, honours Retry-After, then gives up until the re-crawl', () => {
    const first = applyStatus(record, status({ outcome: 'server_error', retriable: true }), now, policy);
    expect(first).toMatchObject({ status: 'retry', consecutiveFailures: 1, nextFetchAt: now + 750 });
    const second = applyStatus(
      first,
      status({ outcome: 'throttled', retriable: true, retryAfterMs: 30_000, attempt: 1 }),
      now,
      policy,
    );
    expect(second).toMatchObject({ status: 'retry', consecutiveFailures: 2, nextFetchAt: now + 30_000 });
    const third = applyStatus(second, status({ outcome: 'timeout', retriable: true, attempt: 2 }), now, policy);
    expect(third).toMatchObject({ status: 'error', consecutiveFailures: 3, nextFetchAt: now + DAY });
  });

  it('counts a failed attempt once, however often its status arrives', () => {
    const first = applyStatus(record, status({ outcome: 'server_error', retriable: true, attempt: 0 }), now, policy);
    // Redelivered after a scheduler restart: the record already holds it.
    expect(
      applyStatus(first, status({ outcome: 'server_error', retriable: true, attempt: 0 }), now + 5000, policy),
    ).toBe(first);
    const second = applyStatus(first, status({ outcome: 'server_error', retriable: true, attempt: 1 }), now, policy);
    expect(second).toMatchObject({ status: 'retry', consecutiveFailures: 2 });
    expect(
      applyStatus(second, status({ outcome: 'ok', change: 'new', digest: 'd', attempt: 1 }), now, policy),
    ).toMatchObject({ status: 'fetched', consecutiveFailures: 0 });
  });

  it('does not retry failures that will not pass', () => {
    expect(applyStatus(record, status({ outcome: 'dns_failure', retriable: false }), now, policy)).toMatchObject({
      status: 'error',
    });
    expect(applyStatus(record, status({ outcome: 'denied', httpStatus: 403 }), now, policy)).toMatchObject({
      status: 'error',
    });
  });

  it('records redirects with their target and resets failures after a success', () => {
    const failing = { ...record, consecutiveFailures: 2 };
    expect(
      applyStatus(failing, status({ outcome: 'redirect', redirectTo: 'http://a.test/new' }), now, policy),
    ).toMatchObject({ status: 'redirect', redirectTo: 'http://a.test/new', consecutiveFailures: 0 });
    expect(applyStatus(failing, status({ outcome: 'not_modified', httpStatus: 304 }), now, policy)).toMatchObject({
      status: 'fetched',
      consecutiveFailures: 0,
      digest: 'old',
    });
  });

  it('does not count a URL handed back by a full fetcher queue as an attempt', () => {
    const next = applyStatus(
      record,
      status({ outcome: 'throttled', retriable: true, errorCode: 'FETCHER_QUEUE_FULL', retryAfterMs: 4000 }),
      now,
      policy,
    );
    expect(next).toMatchObject({
      status: 'queued',
      fetchCount: 0,
      consecutiveFailures: 0,
      leaseUntil: 0,
      nextFetchAt: now + 4000,
    });
  });
});
