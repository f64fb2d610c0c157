import type { LinkBase } from '@crawler/core';
import { makeLinkRecord } from '@crawler/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createElasticsearchLinkBase } from './elasticsearch-linkbase.js';
import { dropTestIndex, quiet, testConfig } from './testing/test-index.js';

describe('leases', () => {
  const config = testConfig();
  let first: LinkBase;
  let second: LinkBase;

  beforeAll(async () => {
    // Two instances, as two scheduler processes on one index would have.
    first = await createElasticsearchLinkBase(config, quiet);
    second = await createElasticsearchLinkBase(config, quiet);
  });
  afterAll(async () => {
    await first.close();
    await second.close();
    await dropTestIndex(config.index);
  });

  it('are exclusive: two callers leasing the same 100 ids at once get each id exactly once', async () => {
    const now = 5_000_000;
    const records = Array.from({ length: 100 }, (_, i) =>
      makeLinkRecord(`http://race${i % 7}.lease.test/${i}`, { nextFetchAt: now - 1 }),
    );
    await first.insertNew(records);
    const ids = records.map((record) => record.id);
    const [a, b, c] = await Promise.all([
      first.lease(ids, now + 1000, now),
      second.lease(ids, now + 2000, now),
      first.lease([...ids].reverse(), now + 3000, now),
    ]);
    const all = [...a!, ...b!, ...c!].map((record) => record.id);
    expect(all.sort()).toEqual([...ids].sort());
    const stored = await second.getMany(ids);
    for (const leased of [...a!, ...b!, ...c!]) expect(stored.get(leased.id)?.leaseUntil).toBe(leased.leaseUntil);
  });

  it('count a lease that ran out when the URL is leased again, and only then', async () => {
    const now = 6_000_000;
    const record = makeLinkRecord('http://expiry.lease.test/x', { nextFetchAt: now - 1 });
    await first.insertNew([record]);
    expect((await first.lease([record.id], now + 100, now))[0]!.leaseExpiries).toBe(0);
    expect(await second.lease([record.id], now + 200, now + 50)).toEqual([]);
    expect((await second.lease([record.id], now + 300, now + 100))[0]).toMatchObject({
      leaseUntil: now + 300,
      leaseExpiries: 1,
    });
    // An answered URL (lease cleared to 0) is not an expiry.
    await first.update([record.id], (current) => ({
      ...current,
      leaseUntil: 0,
      status: 'fetched',
      nextFetchAt: now + 500,
    }));
    expect(await first.lease([record.id], now + 900, now + 400)).toEqual([]);
    expect((await first.lease([record.id], now + 900, now + 500))[0]!.leaseExpiries).toBe(1);
  });

  it('check the stored record when it changed after findDue read it', async () => {
    const now = 8_000_000;
    const host = 'stale.lease.test';
    const finished = makeLinkRecord(`http://${host}/finished`, { nextFetchAt: now - 1 });
    const linked = makeLinkRecord(`http://${host}/linked`, { nextFetchAt: now - 1 });
    await first.insertNew([finished, linked]);
    const due = (await first.findDue({ now, limit: 100, perQueueLimit: 10 })).filter((record) => record.host === host);
    expect(due).toHaveLength(2);
    await second.update([finished.id], (current) => ({ ...current, status: 'gone' }));
    await second.update([linked.id], (current) => ({ ...current, inlinks: current.inlinks + 1 }));
    const leased = await first.lease(
      due.map((record) => record.id),
      now + 1000,
      now,
    );
    expect(leased.map((record) => [record.id, record.inlinks])).toEqual([[linked.id, 1]]);
    expect((await first.getMany([finished.id])).get(finished.id)).toMatchObject({ status: 'gone', leaseUntil: 0 });
  });

  it('leave URLs alone that are final, not due yet, or unknown', async () => {
    const now = 7_000_000;
    const gone = makeLinkRecord('http://final.lease.test/gone', { status: 'gone' });
    const later = makeLinkRecord('http://final.lease.test/later', { nextFetchAt: now + 1 });
    await first.insertNew([gone, later]);
    expect(await first.lease([gone.id, later.id, 'unknown'], now + 1000, now)).toEqual([]);
    expect((await first.getMany([gone.id, later.id])).get(later.id)?.leaseUntil).toBe(0);
  });
});
