import { NEVER_DUE } from '@crawler/core';
import { makeLinkRecord } from '@crawler/core/testing';
import { describe, expect, it } from 'vitest';
import { dueQueuesPageRequest, earliestDue, queuesOf } from './queue-store.js';

describe('queue store', () => {
  it("takes a record's earliest due time from its time and its lease, and none when it is settled or never due", () => {
    const record = makeLinkRecord('http://a.test/', { nextFetchAt: 100 });
    expect(earliestDue(record)).toBe(100);
    expect(earliestDue({ ...record, leaseUntil: 500 })).toBe(500);
    expect(earliestDue({ ...record, nextFetchAt: 900, leaseUntil: 500 })).toBe(900);
    expect(earliestDue({ ...record, status: 'gone' })).toBeNull();
    expect(earliestDue({ ...record, status: 'error', nextFetchAt: NEVER_DUE })).toBeNull();
  });

  it('lowers each queue once, to the earliest of its records, with its partition', () => {
    const [a, b] = [makeLinkRecord('http://a.test/'), makeLinkRecord('http://b.test/')];
    expect(
      queuesOf([
        makeLinkRecord('http://a.test/1', { nextFetchAt: 300 }),
        makeLinkRecord('http://b.test/1', { nextFetchAt: 50 }),
        makeLinkRecord('http://a.test/2', { nextFetchAt: 200 }),
        makeLinkRecord('http://a.test/3', { nextFetchAt: 10, status: 'duplicate' }),
        makeLinkRecord('http://c.test/1', { status: 'blocked' }),
      ]),
    ).toEqual([
      { queueKey: 'a.test', dueAt: 200, partition: a.partition },
      { queueKey: 'b.test', dueAt: 50, partition: b.partition },
    ]);
  });

  it('walks queues due by now in key order, after the cursor and up to where the round began, paused ones and other partitions aside', () => {
    const first = dueQueuesPageRequest('q', 500, { after: undefined, upTo: undefined, queues: 7 }, {});
    expect(first).toEqual({
      index: 'q',
      size: 7,
      track_total_hits: false,
      request_cache: false,
      seq_no_primary_term: true,
      query: { bool: { filter: [{ range: { dueAt: { lte: 500 } } }] } },
      sort: [{ queueKey: 'asc' }],
    });
    expect(dueQueuesPageRequest('q', 500, { after: 'm.test', upTo: undefined, queues: 7 }, {}).search_after).toEqual([
      'm.test',
    ]);
    const wrapped = dueQueuesPageRequest(
      'q',
      500,
      { after: undefined, upTo: 'm.test', queues: 2 },
      { excludeQueues: ['b.test'], partitions: [3, 4] },
    );
    expect(wrapped.search_after).toBeUndefined();
    expect(wrapped.query).toEqual({
      bool: {
        filter: [
          { range: { dueAt: { lte: 500 } } },
          { range: { queueKey: { lte: 'm.test' } } },
          { terms: { partition: [3, 4] } },
        ],
        must_not: [{ terms: { queueKey: ['b.test'] } }],
      },
    });
  });
});
