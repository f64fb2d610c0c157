import type { estypes } from '@elastic/elasticsearch';
import type { LinkRecord, LinkStatus } from '@crawler/core';
import type { QueuePageRequest } from './queue-rotation.js';

/** Statuses that come due again; the others (redirect, duplicate, gone, blocked) are final. */
export const SCHEDULABLE_STATUSES: readonly LinkStatus[] = ['queued', 'retry', 'fetched', 'error'];

/** Crawl order within a queue: priority high first, then shallow first, then oldest due; the id makes ties stable. */
export const CRAWL_ORDER: estypes.SortCombinations[] = [{ priority: 'desc' }, { depth: 'asc' }, { nextFetchAt: 'asc' }, { id: 'asc' }];

/** Due at `now`: schedulable, its time has come, and no lease holds it. */
export function dueFilter(now: number): estypes.QueryDslQueryContainer[] {
  return [{ terms: { status: [...SCHEDULABLE_STATUSES] } }, { range: { nextFetchAt: { lte: now } } }, { range: { leaseUntil: { lte: now } } }];
}

/** The same rule on a record read back, for the compare-and-set of a lease. */
export function isDue(record: LinkRecord, now: number): boolean {
  return SCHEDULABLE_STATUSES.includes(record.status) && record.nextFetchAt <= now && record.leaseUntil <= now;
}

/**
 * One page of due queues in key order, each with its first `perQueue` records in crawl order: a
 * composite aggregation pages through queue keys with `after`, and top_hits picks per queue, in one
 * request (2-3x faster in our measurements than collapse + inner_hits, which runs one more search
 * per queue). Sequence numbers come along, so a lease right after can write without reading first. The request cache is off: `now` differs on every call, so cached entries would never hit.
 */
export function dueQueuesRequest(index: string, now: number, page: QueuePageRequest, perQueue: number): estypes.SearchRequest {
  const filter = dueFilter(now);
  if (page.upTo !== undefined) filter.push({ range: { queueKey: { lte: page.upTo } } });
  return {
    index,
    size: 0,
    track_total_hits: false,
    request_cache: false,
    query: { bool: { filter } },
    aggs: {
      queues: {
        composite: {
          size: page.queues,
          sources: [{ queueKey: { terms: { field: 'queueKey' } } }],
          ...(page.after === undefined ? {} : { after: { queueKey: page.after } }),
        },
        aggs: { due: { top_hits: { size: perQueue, sort: CRAWL_ORDER, _source: true, seq_no_primary_term: true } } },
      },
    },
  };
}

/** Counts by status, leased, and due only when asked, in one request. */
export function statsRequest(index: string, now: number, withDue: boolean): estypes.SearchRequest {
  return {
    index,
    size: 0,
    track_total_hits: true,
    request_cache: false,
    aggs: {
      byStatus: { terms: { field: 'status', size: 100 } },
      leased: { filter: { range: { leaseUntil: { gt: now } } } },
      ...(withDue ? { due: { filter: { bool: { filter: dueFilter(now) } } } } : {}),
    },
  };
}
