import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LinkBase } from '../ports/linkbase.js';
import { makeLinkRecord } from './link-records.js';

export interface LinkBaseContractHarness {
  linkbase: LinkBase;
  /** A second instance on the same storage, as after a restart (the first is closed first). */
  reopen(): Promise<LinkBase>;
  cleanup?(): Promise<void>;
}

let counter = 0;
function unique(path: string): string {
  counter++;
  return `http://h${counter % 3}.contract.test/${counter}/${path}`;
}

/** The behaviour every LinkBase adapter must have; each test uses its own URLs. */
export function describeLinkBaseContract(adapter: string, create: () => Promise<LinkBaseContractHarness>): void {
  describe(`LinkBase contract: ${adapter}`, () => {
    let harness: LinkBaseContractHarness;
    let linkbase: LinkBase;
    beforeAll(async () => {
      harness = await create();
      linkbase = harness.linkbase;
    });
    afterAll(async () => {
      await linkbase.close();
      await harness.cleanup?.();
    });

    it('inserts only unknown ids and reads them back', async () => {
      const a = makeLinkRecord(unique('a'), { depth: 1 });
      const b = makeLinkRecord(unique('b'));
      expect((await linkbase.insertNew([a, b])).sort()).toEqual([a.id, b.id].sort());
      expect(await linkbase.insertNew([{ ...a, depth: 9 }])).toEqual([]);
      const stored = await linkbase.getMany([a.id, b.id, 'missing']);
      expect(stored.size).toBe(2);
      expect(stored.get(a.id)).toMatchObject({ url: a.url, depth: 1, status: 'queued' });
    });

    it('loses no update when many writers modify one record at once', async () => {
      const record = makeLinkRecord(unique('counter'));
      await linkbase.insertNew([record]);
      await Promise.all(Array.from({ length: 25 }, () => linkbase.update([record.id], (current) => ({ ...current, inlinks: current.inlinks + 1 }))));
      expect((await linkbase.getMany([record.id])).get(record.id)?.inlinks).toBe(25);
    });

    it('skips unknown ids and leaves records alone when a mutation returns null', async () => {
      const record = makeLinkRecord(unique('noop'), { priority: 3 });
      await linkbase.insertNew([record]);
      expect(await linkbase.update(['unknown-id'], (current) => current)).toEqual([]);
      expect(await linkbase.update([record.id], () => null)).toEqual([]);
      expect((await linkbase.getMany([record.id])).get(record.id)?.priority).toBe(3);
    });

    it('finds due URLs per queue in priority, then depth order, capped per queue', async () => {
      const now = 1_000_000;
      const host = `due-${counter++}.contract.test`;
      const records = [
        makeLinkRecord(`http://${host}/deep`, { depth: 3, nextFetchAt: now - 10 }),
        makeLinkRecord(`http://${host}/shallow`, { depth: 1, nextFetchAt: now - 10 }),
        makeLinkRecord(`http://${host}/important`, { depth: 5, priority: 10, nextFetchAt: now - 10 }),
        makeLinkRecord(`http://${host}/later`, { depth: 0, nextFetchAt: now + 60_000 }),
        makeLinkRecord(`http://${host}/gone`, { depth: 0, status: 'gone', nextFetchAt: 0 }),
      ];
      await linkbase.insertNew(records);
      const due = (await linkbase.findDue({ now, limit: 1000, perQueueLimit: 1000 })).filter((record) => record.host === host);
      expect(due.map((record) => new URL(record.url).pathname)).toEqual(['/important', '/shallow', '/deep']);
      const capped = (await linkbase.findDue({ now, limit: 1000, perQueueLimit: 2 })).filter((record) => record.host === host);
      expect(capped.map((record) => new URL(record.url).pathname)).toEqual(['/important', '/shallow']);
    });

    it('leases a due URL once and makes it due again when the lease runs out', async () => {
      const now = 2_000_000;
      const host = `lease-${counter++}.contract.test`;
      const record = makeLinkRecord(`http://${host}/x`, { nextFetchAt: now - 1 });
      await linkbase.insertNew([record]);
      expect((await linkbase.lease([record.id], now + 1000, now)).map((leased) => leased.id)).toEqual([record.id]);
      expect(await linkbase.lease([record.id], now + 1000, now)).toEqual([]);
      const hostDue = async (at: number) => (await linkbase.findDue({ now: at, limit: 1000, perQueueLimit: 10 })).filter((due) => due.host === host);
      expect(await hostDue(now + 500)).toEqual([]);
      expect((await hostDue(now + 1001)).map((due) => due.id)).toEqual([record.id]);
    });

    it('counts records by status, leased and due', async () => {
      const before = await linkbase.stats(3_000_000, { due: true });
      const records = [makeLinkRecord(unique('s1'), { status: 'gone' }), makeLinkRecord(unique('s2'), { nextFetchAt: 10 }), makeLinkRecord(unique('s3'), { leaseUntil: 9_000_000 })];
      await linkbase.insertNew(records);
      const after = await linkbase.stats(3_000_000, { due: true });
      expect(after.total - before.total).toBe(3);
      expect((after.byStatus.gone ?? 0) - (before.byStatus.gone ?? 0)).toBe(1);
      expect(after.leased - before.leased).toBe(1);
      expect(after.due! - before.due!).toBe(1);
      expect((await linkbase.stats(3_000_000)).due).toBeNull();
    });

    it('scans every record and keeps them across a restart', async () => {
      const record = makeLinkRecord(unique('persist'), { anchors: ['Persist me'], etag: '"e1"' });
      await linkbase.insertNew([record]);
      await linkbase.update([record.id], (current) => ({ ...current, status: 'fetched', fetchCount: 1 }));
      await linkbase.flush();
      let seen = false;
      for await (const scanned of linkbase.scan()) if (scanned.id === record.id) seen = true;
      expect(seen).toBe(true);
      linkbase = await harness.reopen();
      expect((await linkbase.getMany([record.id])).get(record.id)).toMatchObject({ status: 'fetched', fetchCount: 1, anchors: ['Persist me'], etag: '"e1"' });
    });
  });
}
