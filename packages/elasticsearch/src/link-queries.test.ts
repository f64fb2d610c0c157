import { makeLinkRecord } from '@crawler/core/testing';
import { describe, expect, it } from 'vitest';
import {
  DISCOVERY_ORDER,
  dueFilter,
  dueUrlsRequest,
  isDue,
  nextDueRequest,
  RECRAWL_ORDER,
  statsRequest,
} from './link-queries.js';

describe('link base queries', () => {
  it('calls due what is schedulable, due by time and not leased', () => {
    expect(dueFilter(1000)).toEqual([
      { terms: { status: ['queued', 'retry', 'fetched', 'error', 'blocked_by_site'] } },
      { range: { nextFetchAt: { lte: 1000 } } },
      { range: { leaseUntil: { lte: 1000 } } },
    ]);
    const record = makeLinkRecord('http://a.test/', { nextFetchAt: 1000, leaseUntil: 1000 });
    expect(isDue(record, 1000)).toBe(true);
    expect(isDue({ ...record, nextFetchAt: 1001 }, 1000)).toBe(false);
    expect(isDue({ ...record, leaseUntil: 1001 }, 1000)).toBe(false);
    for (const status of ['redirect', 'duplicate', 'gone', 'blocked'] as const)
      expect(isDue({ ...record, status }, 1000)).toBe(false);
    for (const status of ['queued', 'retry', 'fetched', 'error', 'blocked_by_site'] as const)
      expect(isDue({ ...record, status }, 1000)).toBe(true);
  });

  it('reads the due URLs of the given queues only, each split into groups (class, level): new URLs breadth-first, re-crawls most overdue first', () => {
    const request = dueUrlsRequest('links', 500, ['a.test', 'b.test'], 3);
    expect(request).toMatchObject({
      index: 'links',
      size: 0,
      track_total_hits: false,
      request_cache: false,
      query: { bool: { filter: [{ terms: { queueKey: ['a.test', 'b.test'] } }, ...dueFilter(500)] } },
    });
    const queues = request.aggs!.queues!;
    expect(queues.terms).toEqual({ field: 'queueKey', size: 2, execution_hint: 'map' });
    expect(queues.aggs!.open!.filter).toEqual({ match_all: {} });
    const discovery = queues.aggs!.open!.aggs!.discovery!;
    expect(discovery.filter).toEqual({ term: { trafficClass: 'discovery' } });
    expect(discovery.aggs!.levels!.terms).toEqual({ field: 'level', size: 4 });
    expect(discovery.aggs!.levels!.aggs!.due!.top_hits).toEqual({
      size: 3,
      sort: DISCOVERY_ORDER,
      _source: true,
      seq_no_primary_term: true,
    });
    const recrawl = queues.aggs!.open!.aggs!.recrawl!;
    expect(recrawl.aggs!.classes!.terms!.field).toBe('trafficClass');
    expect(recrawl.aggs!.classes!.aggs!.levels!.aggs!.due!.top_hits!.sort).toEqual(RECRAWL_ORDER);
    expect(DISCOVERY_ORDER).toEqual([{ depth: 'asc' }, { rank: 'asc' }, { id: 'asc' }]);
    expect(RECRAWL_ORDER).toEqual([{ nextFetchAt: 'asc' }, { rank: 'asc' }, { id: 'asc' }]);
  });

  it('leaves paused jobs out of the URLs, not out of the count that tells whether a queue had anything due', () => {
    const request = dueUrlsRequest('links', 500, ['a.test'], 3, ['j']);
    expect(request.query).toEqual({ bool: { filter: [{ terms: { queueKey: ['a.test'] } }, ...dueFilter(500)] } });
    expect(request.aggs!.queues!.aggs!.open!.filter).toEqual({ bool: { must_not: [{ terms: { jobId: ['j'] } }] } });
  });

  it("asks for a queue's due count and the earliest time its other URLs come due, leases included", () => {
    const request = nextDueRequest('links', 500, ['a.test']);
    expect(request.query).toEqual({
      bool: {
        filter: [
          { terms: { queueKey: ['a.test'] } },
          { terms: { status: ['queued', 'retry', 'fetched', 'error', 'blocked_by_site'] } },
        ],
      },
    });
    const aggs = request.aggs!.queues!.aggs!;
    expect(aggs.waiting).toEqual({
      filter: { range: { leaseUntil: { lte: 500 } } },
      aggs: { next: { min: { field: 'nextFetchAt' } } },
    });
    expect(aggs.leased).toEqual({
      filter: { range: { leaseUntil: { gt: 500 } } },
      aggs: { next: { min: { field: 'leaseUntil' } } },
    });
  });

  it('counts due only when asked', () => {
    const plain = statsRequest('links', 42, false);
    expect(plain).toMatchObject({ index: 'links', size: 0, track_total_hits: true });
    expect(Object.keys(plain.aggs!)).toEqual(['byStatus', 'byJob', 'leased']);
    expect(plain.aggs!.leased).toEqual({ filter: { range: { leaseUntil: { gt: 42 } } } });
    const due = statsRequest('links', 42, true).aggs!.due!;
    expect(due.filter).toEqual({ bool: { filter: dueFilter(42) } });
    expect(Object.keys(due.aggs!)).toEqual(['byClass', 'byLevel', 'topQueues']);
  });
});
