import { makeLinkRecord } from '@crawler/core/testing';
import { describe, expect, it } from 'vitest';
import { DISCOVERY_ORDER, dueFilter, dueQueuesRequest, isDue, RECRAWL_ORDER, statsRequest } from './link-queries.js';

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

  it('pages queues in key order, each split into groups (class, level): new URLs breadth-first, re-crawls most overdue first', () => {
    const request = dueQueuesRequest('links', 500, { after: undefined, upTo: undefined, queues: 7 }, 3);
    expect(request).toMatchObject({
      index: 'links',
      size: 0,
      track_total_hits: false,
      request_cache: false,
      query: { bool: { filter: dueFilter(500) } },
    });
    const queues = request.aggs!.queues!;
    expect(queues.composite).toEqual({ size: 7, sources: [{ queueKey: { terms: { field: 'queueKey' } } }] });
    const discovery = queues.aggs!.discovery!;
    expect(discovery.filter).toEqual({ term: { trafficClass: 'discovery' } });
    expect(discovery.aggs!.levels!.terms).toEqual({ field: 'level', size: 4 });
    expect(discovery.aggs!.levels!.aggs!.due!.top_hits).toEqual({
      size: 3,
      sort: DISCOVERY_ORDER,
      _source: true,
      seq_no_primary_term: true,
    });
    const recrawl = queues.aggs!.recrawl!;
    expect(recrawl.aggs!.classes!.terms!.field).toBe('trafficClass');
    expect(recrawl.aggs!.classes!.aggs!.levels!.aggs!.due!.top_hits!.sort).toEqual(RECRAWL_ORDER);
    expect(DISCOVERY_ORDER).toEqual([{ depth: 'asc' }, { rank: 'asc' }, { id: 'asc' }]);
    expect(RECRAWL_ORDER).toEqual([{ nextFetchAt: 'asc' }, { rank: 'asc' }, { id: 'asc' }]);
  });

  it('leaves paused queues and jobs out', () => {
    const request = dueQueuesRequest('links', 500, { after: undefined, upTo: undefined, queues: 7 }, 3, {
      queues: ['a.test'],
      jobs: ['j'],
    });
    expect(request.query).toEqual({
      bool: { filter: dueFilter(500), must_not: [{ terms: { queueKey: ['a.test'] } }, { terms: { jobId: ['j'] } }] },
    });
    expect(
      dueQueuesRequest('links', 500, { after: undefined, upTo: undefined, queues: 7 }, 3, { queues: [], jobs: [] })
        .query,
    ).toEqual({ bool: { filter: dueFilter(500) } });
  });

  it('continues after a key and stops at the key a wrapped-around round began with', () => {
    expect(
      dueQueuesRequest('links', 500, { after: 'm.test', upTo: undefined, queues: 2 }, 1).aggs!.queues!.composite!.after,
    ).toEqual({ queueKey: 'm.test' });
    const wrapped = dueQueuesRequest('links', 500, { after: undefined, upTo: 'm.test', queues: 2 }, 1);
    expect(wrapped.query).toEqual({
      bool: { filter: [...dueFilter(500), { range: { queueKey: { lte: 'm.test' } } }] },
    });
    expect(wrapped.aggs!.queues!.composite!.after).toBeUndefined();
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
