import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LinkBase } from '../ports/linkbase.js';
import { NEVER_DUE } from '../next-fetch.js';
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
      await Promise.all(
        Array.from({ length: 25 }, () =>
          linkbase.update([record.id], (current) => ({ ...current, inlinks: current.inlinks + 1 })),
        ),
      );
      expect((await linkbase.getMany([record.id])).get(record.id)?.inlinks).toBe(25);
    });

    it('skips unknown ids and leaves records alone when a mutation returns null', async () => {
      const record = makeLinkRecord(unique('noop'), { priority: 3 });
      await linkbase.insertNew([record]);
      expect(await linkbase.update(['unknown-id'], (current) => current)).toEqual([]);
      expect(await linkbase.update([record.id], () => null)).toEqual([]);
      expect((await linkbase.getMany([record.id])).get(record.id)?.priority).toBe(3);
    });

    it('finds due URLs per queue and group (class, level): new ones breadth-first then by rank, re-crawls most overdue first, capped per group', async () => {
      const now = 1_000_000;
      const host = `due-${counter++}.contract.test`;
      const records = [
        makeLinkRecord(`http://${host}/deep`, { depth: 3, nextFetchAt: now - 10 }),
        makeLinkRecord(`http://${host}/shallow-b`, { depth: 1, rank: 0.7, nextFetchAt: now - 10 }),
        makeLinkRecord(`http://${host}/shallow-a`, { depth: 1, rank: 0.2, nextFetchAt: now - 10 }),
        makeLinkRecord(`http://${host}/low`, { depth: 0, level: 3, nextFetchAt: now - 10 }),
        makeLinkRecord(`http://${host}/recheck-late`, {
          depth: 0,
          trafficClass: 'update',
          fetchCount: 1,
          status: 'fetched',
          nextFetchAt: now - 10,
        }),
        makeLinkRecord(`http://${host}/recheck-overdue`, {
          depth: 2,
          trafficClass: 'update',
          fetchCount: 1,
          status: 'fetched',
          nextFetchAt: now - 5000,
        }),
        makeLinkRecord(`http://${host}/later`, { depth: 0, nextFetchAt: now + 60_000 }),
        makeLinkRecord(`http://${host}/gone`, { depth: 0, status: 'gone', nextFetchAt: 0 }),
      ];
      await linkbase.insertNew(records);
      const groups = async (perQueueLimit: number) => {
        const due = (await linkbase.findDue({ now, limit: 1000, perQueueLimit })).filter(
          (record) => record.host === host,
        );
        const byGroup = new Map<string, string[]>();
        for (const record of due) {
          const key = `${record.trafficClass}/${record.level}`;
          byGroup.set(key, [...(byGroup.get(key) ?? []), new URL(record.url).pathname]);
        }
        return Object.fromEntries([...byGroup].sort(([a], [b]) => (a < b ? -1 : 1)));
      };
      expect(await groups(1000)).toEqual({
        'discovery/0': ['/shallow-a', '/shallow-b', '/deep'],
        'discovery/3': ['/low'],
        'update/0': ['/recheck-overdue', '/recheck-late'],
      });
      expect(await groups(1)).toEqual({
        'discovery/0': ['/shallow-a'],
        'discovery/3': ['/low'],
        'update/0': ['/recheck-overdue'],
      });
    });

    it('hands a URL its site blocked out again once its block is over, and not before', async () => {
      const now = 1_000_000;
      const host = `blocked-${counter++}.contract.test`;
      await linkbase.insertNew([
        makeLinkRecord(`http://${host}/over`, { status: 'blocked_by_site', nextFetchAt: now - 1 }),
        makeLinkRecord(`http://${host}/waiting`, { status: 'blocked_by_site', nextFetchAt: now + 60_000 }),
      ]);
      const due = (await linkbase.findDue({ now, limit: 1000, perQueueLimit: 1000 })).filter(
        (record) => record.host === host,
      );
      expect(due.map((record) => new URL(record.url).pathname)).toEqual(['/over']);
    });

    it('leaves paused queues and jobs out of findDue', async () => {
      const now = 1_500_000;
      const paused = `paused-${counter++}.contract.test`;
      const open = `open-${counter++}.contract.test`;
      const jobId = `paused-job-${counter++}`;
      await linkbase.insertNew([
        makeLinkRecord(`http://${paused}/a`, { nextFetchAt: now - 1 }),
        makeLinkRecord(`http://${open}/a`, { nextFetchAt: now - 1 }),
        makeLinkRecord(`http://${open}/of-paused-job`, { nextFetchAt: now - 1, jobId }),
      ]);
      const due = await linkbase.findDue({
        now,
        limit: 1000,
        perQueueLimit: 10,
        exclude: { queues: [paused], jobs: [jobId] },
      });
      expect(
        due.filter((record) => record.host === paused || record.host === open).map((record) => record.url),
      ).toEqual([`http://${open}/a`]);
    });

    it('returns only the URLs of the partitions asked for, due or leased', async () => {
      const now = 1_700_000;
      // Hosts until two partitions are covered: the record's partition follows its queue key.
      const records = Array.from({ length: 40 }, (_, i) =>
        makeLinkRecord(`http://part-${counter}-${i}.contract.test/`, { nextFetchAt: now - 1 }),
      );
      counter++;
      await linkbase.insertNew(records);
      const [first, second] = [...new Set(records.map((record) => record.partition))];
      const ofTest = (found: { id: string }[]) => {
        const ids = new Set(records.map((record) => record.id));
        return found.filter((record) => ids.has(record.id));
      };
      const due = ofTest(await linkbase.findDue({ now, limit: 1000, perQueueLimit: 10, partitions: [first!] }));
      expect(due.map((record) => record.id).sort()).toEqual(
        records
          .filter((record) => record.partition === first)
          .map((record) => record.id)
          .sort(),
      );
      const leasable = records.filter((record) => record.partition !== first).map((record) => record.id);
      await linkbase.lease(leasable, now + 1000, now);
      await linkbase.flush();
      const leased = ofTest(await linkbase.findLeased({ now, partitions: [second!], limit: 1000 }));
      expect(leased.map((record) => record.id).sort()).toEqual(
        records
          .filter((record) => record.partition === second)
          .map((record) => record.id)
          .sort(),
      );
      expect(ofTest(await linkbase.findLeased({ now: now + 1000, partitions: [second!], limit: 1000 }))).toEqual([]);
    });

    it('keeps shared counters without losing concurrent updates', async () => {
      const name = `counters-${counter++}`;
      expect(await linkbase.getCounters(name)).toEqual({});
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          linkbase.updateCounters(name, (current) => ({
            ...current,
            total: (current.total ?? 0) + 1,
            [`k${i % 2}`]: i,
          })),
        ),
      );
      const stored = await linkbase.getCounters(name);
      expect(stored.total).toBe(20);
      expect(await linkbase.updateCounters(name, () => null)).toEqual(stored);
    });

    it('leases a due URL once and makes it due again when the lease runs out', async () => {
      const now = 2_000_000;
      const host = `lease-${counter++}.contract.test`;
      const record = makeLinkRecord(`http://${host}/x`, { nextFetchAt: now - 1 });
      await linkbase.insertNew([record]);
      expect((await linkbase.lease([record.id], now + 1000, now)).map((leased) => leased.id)).toEqual([record.id]);
      expect(await linkbase.lease([record.id], now + 1000, now)).toEqual([]);
      const hostDue = async (at: number) =>
        (await linkbase.findDue({ now: at, limit: 1000, perQueueLimit: 10 })).filter((due) => due.host === host);
      expect(await hostDue(now + 500)).toEqual([]);
      expect((await hostDue(now + 1001)).map((due) => due.id)).toEqual([record.id]);
    });

    it('counts records by status, job, leased and due, with the due detail when asked', async () => {
      const jobId = `stats-job-${counter++}`;
      const queue = `stats-${counter++}.contract.test`;
      const before = await linkbase.stats(3_000_000, { due: true });
      const records = [
        makeLinkRecord(unique('s1'), { status: 'gone', jobId }),
        makeLinkRecord(`http://${queue}/due`, { nextFetchAt: 10, jobId, level: 2, trafficClass: 'freshness' }),
        makeLinkRecord(unique('s3'), { leaseUntil: 9_000_000, jobId }),
        makeLinkRecord(unique('s4'), { fetchCount: 2, status: 'fetched', nextFetchAt: 9_000_000, jobId }),
      ];
      await linkbase.insertNew(records);
      const after = await linkbase.stats(3_000_000, { due: true });
      expect(after.total - before.total).toBe(4);
      expect((after.byStatus.gone ?? 0) - (before.byStatus.gone ?? 0)).toBe(1);
      expect(after.leased - before.leased).toBe(1);
      expect(after.byJob[jobId]).toEqual({ total: 4, visited: 2 });
      expect(after.due! - before.due!).toBe(1);
      expect((after.dueDetail!.byClass.freshness ?? 0) - (before.dueDetail!.byClass.freshness ?? 0)).toBe(1);
      expect((after.dueDetail!.byLevel['2'] ?? 0) - (before.dueDetail!.byLevel['2'] ?? 0)).toBe(1);
      expect(after.dueDetail!.topQueues.length).toBeGreaterThan(0);
      const plain = await linkbase.stats(3_000_000);
      expect([plain.due, plain.dueDetail, plain.nextDueAt]).toEqual([null, null, null]);
    });

    it('tells when the next URL comes due, final and never-again records aside', async () => {
      // Far beyond every other test's times, so the store's other records do not come first.
      const at = 4e15;
      await linkbase.insertNew([
        makeLinkRecord(unique('later'), { status: 'fetched', fetchCount: 1, nextFetchAt: at + 5000 }),
        makeLinkRecord(unique('sooner'), { status: 'retry', nextFetchAt: at + 2000 }),
        makeLinkRecord(unique('gone'), { status: 'gone', nextFetchAt: at + 1000 }),
        makeLinkRecord(unique('never'), { status: 'error', nextFetchAt: NEVER_DUE }),
      ]);
      expect((await linkbase.stats(at, { due: true })).nextDueAt).toBe(at + 2000);
      expect((await linkbase.stats(at + 2000, { due: true })).nextDueAt).toBe(at + 5000);
      expect((await linkbase.stats(at + 5000, { due: true })).nextDueAt).toBeNull();
    });

    it('keeps the control state (paused jobs and queues, added jobs)', async () => {
      expect(await linkbase.getControl()).toEqual({ pausedJobs: [], pausedQueues: [], jobs: [] });
      const control = {
        pausedJobs: ['j1'],
        pausedQueues: ['a.test:8080'],
        jobs: [{ id: 'j1', seeds: ['http://a.test:8080/'], scope: { allow: ['^http'] } }],
      };
      await linkbase.putControl(control);
      expect(await linkbase.getControl()).toEqual(control);
      await linkbase.putControl({ ...control, pausedJobs: [] });
      expect((await linkbase.getControl()).pausedJobs).toEqual([]);
    });

    it('scans every record and keeps them across a restart', async () => {
      const record = makeLinkRecord(unique('persist'), {
        anchors: ['Persist me'],
        etag: '"e1"',
        sitemapChangefreq: 'daily',
        sitemapLastmod: 1_700_000_000_000,
      });
      await linkbase.insertNew([record]);
      const history = [
        { ms: 86_400_000, changed: true },
        { ms: 3_600_000, changed: false },
      ];
      await linkbase.update([record.id], (current) => ({
        ...current,
        status: 'fetched',
        fetchCount: 1,
        changeHistory: history,
        changeRate: 0.5,
        value: 0.25,
        level: 2,
        rank: 0.125,
        linkYield: 3.5,
      }));
      await linkbase.flush();
      let seen = false;
      for await (const scanned of linkbase.scan()) if (scanned.id === record.id) seen = true;
      expect(seen).toBe(true);
      linkbase = await harness.reopen();
      expect((await linkbase.getMany([record.id])).get(record.id)).toEqual({
        ...record,
        status: 'fetched',
        fetchCount: 1,
        changeHistory: history,
        changeRate: 0.5,
        value: 0.25,
        level: 2,
        rank: 0.125,
        linkYield: 3.5,
      });
      expect((await linkbase.getControl()).pausedQueues).toEqual(['a.test:8080']);
    });
  });
}
