import type { estypes } from '@elastic/elasticsearch';
import { LEVELS, NEVER_DUE, SCHEDULABLE_STATUSES, type LeasedQuery, type LinkRecord } from '@crawler/core';

/** Order within a group of new URLs: shallow first (breadth-first), then the random rank; the id makes ties stable. */
export const DISCOVERY_ORDER: estypes.SortCombinations[] = [{ depth: 'asc' }, { rank: 'asc' }, { id: 'asc' }];
/** Order within a group of re-crawls: most overdue first. */
export const RECRAWL_ORDER: estypes.SortCombinations[] = [{ nextFetchAt: 'asc' }, { rank: 'asc' }, { id: 'asc' }];
const DISCOVERY: estypes.QueryDslQueryContainer = { term: { trafficClass: 'discovery' } };

/** Traffic classes a queue may have due at once; unknown class strings beyond these would be cut. */
const MAX_CLASSES = 8;

/** Due at `now`: schedulable, its time has come, and no lease holds it. */
export function dueFilter(now: number): estypes.QueryDslQueryContainer[] {
  return [
    { terms: { status: [...SCHEDULABLE_STATUSES] } },
    { range: { nextFetchAt: { lte: now } } },
    { range: { leaseUntil: { lte: now } } },
  ];
}

/** Only the URLs of the given partitions (a scheduler's share); nothing to add when all are wanted. */
export function partitionFilter(partitions: readonly number[] | undefined): estypes.QueryDslQueryContainer[] {
  return partitions ? [{ terms: { partition: [...partitions] } }] : [];
}

/** The same rule on a record read back, for the compare-and-set of a lease. */
export function isDue(record: LinkRecord, now: number): boolean {
  return SCHEDULABLE_STATUSES.includes(record.status) && record.nextFetchAt <= now && record.leaseUntil <= now;
}

/**
 * The due URLs of the given queues (a page of the queue walk), each with the first `perGroup`
 * records of every group (traffic class, then level) in group order: terms split the queues, a
 * filter leaves paused jobs out, another splits new URLs from re-crawls (their orders differ),
 * terms split those into levels, and top_hits picks per group, in one request. The work is the
 * URLs of these queues, not of the link base (hence `map`: global ordinals would cost every key
 * of the index after each refresh). A queue without a bucket had nothing due, paused jobs
 * or not (selection then checks whether it can wait). Sequence numbers come along, so a lease right
 * after can write without reading first. The request cache is off: `now` differs on every call.
 */
export function dueUrlsRequest(
  index: string,
  now: number,
  queueKeys: string[],
  perGroup: number,
  excludeJobs: readonly string[] = [],
): estypes.SearchRequest {
  const levels = (sort: estypes.SortCombinations[]): estypes.AggregationsAggregationContainer => ({
    terms: { field: 'level', size: LEVELS },
    aggs: { due: { top_hits: { size: perGroup, sort, _source: true, seq_no_primary_term: true } } },
  });
  return {
    index,
    size: 0,
    track_total_hits: false,
    request_cache: false,
    query: { bool: { filter: [{ terms: { queueKey: queueKeys } }, ...dueFilter(now)] } },
    aggs: {
      queues: {
        terms: { field: 'queueKey', size: queueKeys.length, execution_hint: 'map' },
        aggs: {
          open: {
            filter:
              excludeJobs.length > 0
                ? { bool: { must_not: [{ terms: { jobId: [...excludeJobs] } }] } }
                : { match_all: {} },
            aggs: {
              discovery: { filter: DISCOVERY, aggs: { levels: levels(DISCOVERY_ORDER) } },
              recrawl: {
                filter: { bool: { must_not: [DISCOVERY] } },
                aggs: {
                  classes: {
                    terms: { field: 'trafficClass', size: MAX_CLASSES },
                    aggs: { levels: levels(RECRAWL_ORDER) },
                  },
                },
              },
            },
          },
        },
      },
    },
  };
}

/**
 * Per queue of the given ones: its due URLs (counted) and the earliest time one of its others can
 * come due: the earliest nextFetchAt of the unleased, the earliest lease end of the leased (a lower
 * bound when a leased URL's nextFetchAt is later still). What raising a queue that had nothing due needs.
 */
export function nextDueRequest(index: string, now: number, queueKeys: string[]): estypes.SearchRequest {
  return {
    index,
    size: 0,
    track_total_hits: false,
    request_cache: false,
    query: { bool: { filter: [{ terms: { queueKey: queueKeys } }, { terms: { status: [...SCHEDULABLE_STATUSES] } }] } },
    aggs: {
      queues: {
        terms: { field: 'queueKey', size: queueKeys.length, execution_hint: 'map' },
        aggs: {
          due: {
            filter: {
              bool: { filter: [{ range: { nextFetchAt: { lte: now } } }, { range: { leaseUntil: { lte: now } } }] },
            },
          },
          waiting: {
            filter: { range: { leaseUntil: { lte: now } } },
            aggs: { next: { min: { field: 'nextFetchAt' } } },
          },
          leased: { filter: { range: { leaseUntil: { gt: now } } }, aggs: { next: { min: { field: 'leaseUntil' } } } },
        },
      },
    },
  };
}

/** Jobs counted by stats(); a link base with more jobs reports the largest. */
export const MAX_STATS_JOBS = 1000;

/** Counts by status and job, leased, and due (with its detail) only when asked, in one request. */
export function statsRequest(index: string, now: number, withDue: boolean): estypes.SearchRequest {
  const visited: estypes.QueryDslQueryContainer = {
    bool: {
      should: [{ range: { fetchCount: { gt: 0 } } }, { range: { leaseUntil: { gt: 0 } } }],
      minimum_should_match: 1,
    },
  };
  const dueDetail: Record<string, estypes.AggregationsAggregationContainer> = {
    byClass: { terms: { field: 'trafficClass', size: MAX_CLASSES } },
    byLevel: { terms: { field: 'level', size: LEVELS } },
    topQueues: { terms: { field: 'queueKey', size: 20 } },
  };
  return {
    index,
    size: 0,
    track_total_hits: true,
    request_cache: false,
    aggs: {
      byStatus: { terms: { field: 'status', size: 100 } },
      byJob: { terms: { field: 'jobId', size: MAX_STATS_JOBS }, aggs: { visited: { filter: visited } } },
      leased: { filter: { range: { leaseUntil: { gt: now } } } },
      ...(withDue
        ? {
            due: { filter: { bool: { filter: dueFilter(now) } }, aggs: dueDetail },
            // Never-again records carry nextFetchAt = NEVER_DUE: not "due later".
            later: {
              filter: {
                bool: {
                  filter: [
                    { terms: { status: [...SCHEDULABLE_STATUSES] } },
                    { range: { nextFetchAt: { gt: now, lt: NEVER_DUE } } },
                  ],
                },
              },
              aggs: { next: { min: { field: 'nextFetchAt' } } },
            },
          }
        : {}),
    },
  };
}

/** Most leased URLs one request returns: the index's default result window. */
export const MAX_LEASED = 10_000;

/** URLs whose lease has not run out, of the partitions asked for: a new owner's in-flight state. */
export function leasedRequest(index: string, query: LeasedQuery): estypes.SearchRequest {
  return {
    index,
    size: Math.min(query.limit, MAX_LEASED),
    track_total_hits: false,
    request_cache: false,
    query: {
      bool: { filter: [{ range: { leaseUntil: { gt: query.now } } }, ...partitionFilter(query.partitions)] },
    },
  };
}
