import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FingerprintStore } from '../ports/fingerprints.js';
import { waitFor } from './wait-for.js';

export interface FingerprintContractHarness {
  store: FingerprintStore;
  cleanup?(): Promise<void>;
}

/** The behaviour every FingerprintStore adapter must have. */
export function describeFingerprintContract(adapter: string, create: () => Promise<FingerprintContractHarness>): void {
  describe(`FingerprintStore contract: ${adapter}`, () => {
    let harness: FingerprintContractHarness;
    let store: FingerprintStore;
    const ns = () => `contract-${randomUUID().slice(0, 8)}`;
    beforeAll(async () => {
      harness = await create();
      store = harness.store;
    });
    afterAll(async () => {
      await store.close();
      await harness.cleanup?.();
    });

    it('stores a value only when absent and returns the existing one on a hit', async () => {
      const space = ns();
      const other = ns();
      const first = await store.putIfAbsent([{ namespace: space, key: 'd1', value: 'http://a.test/', ttlMs: 60_000 }]);
      expect(first).toEqual([{ created: true, existing: null }]);
      const second = await store.putIfAbsent([
        { namespace: space, key: 'd1', value: 'http://b.test/', ttlMs: 60_000 },
        { namespace: other, key: 'd1', value: 'http://c.test/', ttlMs: 60_000 },
      ]);
      expect(second).toEqual([
        { created: false, existing: 'http://a.test/' },
        { created: true, existing: null },
      ]);
      expect(await store.get(space, ['d1', 'nope'])).toEqual(['http://a.test/', null]);
    });

    it('settles duplicates within one batch: the first wins', async () => {
      const space = ns();
      const results = await store.putIfAbsent([
        { namespace: space, key: 'same', value: 'first', ttlMs: 60_000 },
        { namespace: space, key: 'same', value: 'second', ttlMs: 60_000 },
      ]);
      expect(results).toEqual([
        { created: true, existing: null },
        { created: false, existing: 'first' },
      ]);
    });

    it('expires entries after their TTL and refreshes the TTL on every hit', async () => {
      const space = ns();
      // Twins with one TTL: only 'kept' is hit (with a long TTL), so it outlives 'short' however slow the machine.
      await store.putIfAbsent([
        { namespace: space, key: 'short', value: 'v', ttlMs: 1000 },
        { namespace: space, key: 'kept', value: 'v', ttlMs: 1000 },
      ]);
      expect(await store.putIfAbsent([{ namespace: space, key: 'kept', value: 'x', ttlMs: 60_000 }])).toEqual([
        { created: false, existing: 'v' },
      ]);
      await waitFor(async () => (await store.get(space, ['short']))[0] === null, 10_000, 50, "'short' to expire");
      expect(await store.get(space, ['short', 'kept'])).toEqual([null, 'v']);
    });

    it('sets, overwrites and deletes', async () => {
      const space = ns();
      await store.set([{ namespace: space, key: 'k', value: '1', ttlMs: 60_000 }]);
      await store.set([{ namespace: space, key: 'k', value: '2', ttlMs: 60_000 }]);
      expect(await store.get(space, ['k'])).toEqual(['2']);
      await store.delete(space, ['k']);
      expect(await store.get(space, ['k'])).toEqual([null]);
    });

    it('keeps sets of members per key', async () => {
      const space = ns();
      await store.addToSet(space, 'band:1', ['a', 'b'], 60_000);
      await store.addToSet(space, 'band:1', ['b', 'c'], 60_000);
      await store.addToSet(space, 'band:2', ['z'], 60_000);
      const [one, two, none] = await store.members(space, ['band:1', 'band:2', 'band:3']);
      expect(one?.sort()).toEqual(['a', 'b', 'c']);
      expect(two).toEqual(['z']);
      expect(none).toEqual([]);
    });

    it('adds members to many sets in one call', async () => {
      const space = ns();
      await store.addToSets([
        { namespace: space, key: 't1:a', members: ['x'], ttlMs: 60_000 },
        { namespace: space, key: 't2:b', members: ['x', 'y'], ttlMs: 60_000 },
        { namespace: space, key: 't1:a', members: ['z'], ttlMs: 60_000 },
      ]);
      const [first, second] = await store.members(space, ['t1:a', 't2:b']);
      expect(first?.sort()).toEqual(['x', 'z']);
      expect(second?.sort()).toEqual(['x', 'y']);
      await store.addToSets([]);
    });

    it('deletes sets as it deletes values', async () => {
      const space = ns();
      await store.addToSets([{ namespace: space, key: 'samples', members: ['a', 'b'], ttlMs: 60_000 }]);
      await store.delete(space, ['samples']);
      expect(await store.members(space, ['samples'])).toEqual([[]]);
    });

    it('expires sets after their TTL', async () => {
      const space = ns();
      await store.addToSets([{ namespace: space, key: 'short', members: ['a'], ttlMs: 1000 }]);
      expect(await store.members(space, ['short'])).toEqual([['a']]);
      await waitFor(
        async () => (await store.members(space, ['short']))[0]!.length === 0,
        10_000,
        50,
        "the set 'short' to expire",
      );
    });

    it('handles large batches', async () => {
      const space = ns();
      const entries = Array.from({ length: 2000 }, (_, i) => ({
        namespace: space,
        key: `k${i}`,
        value: `v${i}`,
        ttlMs: 60_000,
      }));
      const results = await store.putIfAbsent(entries);
      expect(results.every((result) => result.created)).toBe(true);
      const values = await store.get(
        space,
        entries.map((entry) => entry.key),
      );
      expect(values[1999]).toBe('v1999');
    });

    describe('approximate sets (markSeen)', () => {
      const entry = (key: string, ...marks: string[]) => ({ key, marks });

      it('tells whether a key was marked before, per namespace, and which of its marks came with it', async () => {
        const [space, other] = [ns(), ns()];
        expect(await store.markSeen(space, [entry('u1', 'fetch-1', 'page-1'), entry('u2')], 60_000)).toEqual([
          { seen: false, marked: [false, false] },
          { seen: false, marked: [] },
        ]);
        expect(await store.markSeen(space, [entry('u1', 'fetch-1', 'fetch-2', 'page-1')], 60_000)).toEqual([
          { seen: true, marked: [true, false, true] },
        ]);
        expect(await store.markSeen(other, [entry('u1', 'fetch-1')], 60_000)).toEqual([
          { seen: false, marked: [false] },
        ]);
      });

      it('settles a batch in order: a key given twice is seen the second time', async () => {
        const space = ns();
        expect(
          await store.markSeen(space, [entry('same', 'a'), entry('same', 'a'), entry('same', 'b')], 60_000),
        ).toEqual([
          { seen: false, marked: [false] },
          { seen: true, marked: [true] },
          { seen: true, marked: [false] },
        ]);
      });

      it('holds thousands of keys in one call, and no key it was not given', async () => {
        const space = ns();
        const keys = Array.from({ length: 3000 }, (_, i) => entry(`k${i}`, 'm'));
        expect((await store.markSeen(space, keys, 60_000)).some((result) => result.seen)).toBe(false);
        const again = await store.markSeen(space, keys, 60_000);
        expect(again.every((result) => result.seen && result.marked[0])).toBe(true);
      });

      it('forgets a key once its TTL has passed (two generations of half the TTL)', async () => {
        const space = ns();
        const marked = Date.now();
        await store.markSeen(space, [entry('short')], 400);
        // Waits on the clock, not for something to happen: the key is forgotten by construction.
        await waitFor(() => Date.now() > marked + 450, 5_000);
        expect(await store.markSeen(space, [entry('short')], 400)).toEqual([{ seen: false, marked: [] }]);
      });
    });

    describe('pacing', () => {
      // Spacings of a minute: the milliseconds a call takes never blur which slot it got.
      const MINUTE = 60_000;
      const step = (namespace: string, key: string, spacingMs = MINUTE) => ({ namespace, key, spacingMs });

      it('reserves consecutive slots a spacing apart, and none past the wait a caller can afford', async () => {
        const space = ns();
        const take = (maxWaitMs = 10 * MINUTE) => store.pace([{ steps: [step(space, 'q')], maxWaitMs }]);
        const [first] = await take();
        const [second] = await take();
        expect(first).toEqual({
          reserved: true,
          waitMs: 0,
          busyStreak: 0,
          limitedBy: 'spacing',
          blockStreak: 0,
          probe: false,
          windowRequests: 0,
        });
        expect(second!.reserved).toBe(true);
        expect(second!.waitMs).toBeGreaterThan(MINUTE - 5000);
        expect(second!.waitMs).toBeLessThanOrEqual(MINUTE);
        const [refused] = await take(MINUTE);
        expect(refused!.reserved).toBe(false);
        expect(refused!.waitMs).toBeGreaterThan(2 * MINUTE - 5000);
        // A refusal reserved nothing: the next caller gets the slot it would have had.
        const [third] = await take();
        expect(third!.reserved).toBe(true);
        expect(third!.waitMs).toBeGreaterThan(2 * MINUTE - 5000);
        expect(third!.waitMs).toBeLessThanOrEqual(2 * MINUTE);
      });

      it('gives concurrent callers distinct slots, each a spacing from the next', async () => {
        const space = ns();
        const grants = await Promise.all(
          Array.from({ length: 20 }, () =>
            store.pace([{ steps: [step(space, 'busy', 1000)], maxWaitMs: 10 * MINUTE }]),
          ),
        );
        const waits = grants.map(([grant]) => grant!.waitMs).sort((a, b) => a - b);
        expect(grants.every(([grant]) => grant!.reserved)).toBe(true);
        for (let i = 1; i < waits.length; i++) expect(waits[i]! - waits[i - 1]!).toBeGreaterThan(500);
        expect(waits.at(-1)!).toBeGreaterThan(18_000);
      });

      it('finds the slot every key of a request allows, reserves it on each, and paces a repeated key once', async () => {
        const space = ns();
        // One hash tag: on a Redis Cluster the keys share a slot, so the reservation is one atomic call.
        const [host, site] = ['{example.org}host', '{example.org}site'];
        await store.pace([{ steps: [step(space, host)], maxWaitMs: 0 }]);
        const [both] = await store.pace([
          {
            steps: [step(space, site, 1000), step(space, host, 10_000), step(space, site, 5000)],
            maxWaitMs: 10 * MINUTE,
          },
        ]);
        expect(both!.waitMs).toBeGreaterThan(MINUTE - 5000);
        const [alone] = await store.pace([{ steps: [step(space, site, 0)], maxWaitMs: 10 * MINUTE }]);
        // The site's next slot is the shared slot plus the larger of its two spacings.
        expect(alone!.waitMs - both!.waitMs).toBeGreaterThan(4000);
        expect(alone!.waitMs - both!.waitMs).toBeLessThanOrEqual(5000);
      });

      it('keeps a key under its window ceilings, and says when a ceiling set the slot', async () => {
        const space = ns();
        const limited = { ...step(space, '{site.test}site', 0), limits: [{ windowMs: MINUTE, max: 3 }] };
        const take = (maxWaitMs = 10 * MINUTE) => store.pace([{ steps: [limited], maxWaitMs }]);
        for (let i = 0; i < 3; i++) expect((await take())[0]).toMatchObject({ reserved: true, waitMs: 0 });
        const [refused] = await take(1000);
        expect(refused).toMatchObject({ reserved: false, limitedBy: 'limit' });
        // The three slots leave the window a minute (and at most a tenth more) after their bucket began.
        expect(refused!.waitMs).toBeGreaterThan(MINUTE * 0.85);
        expect(refused!.waitMs).toBeLessThanOrEqual(MINUTE * 1.1);
        const [later] = await take();
        expect(later).toMatchObject({ reserved: true, limitedBy: 'limit' });
        expect(later!.waitMs).toBeGreaterThan(MINUTE * 0.85);
      });

      it('holds a blocked key closed, then lets exactly one probe through until the block is settled', async () => {
        const space = ns();
        const site = step(space, '{blocked.test}site', 0);
        const take = () => store.pace([{ steps: [site], maxWaitMs: 10 * MINUTE }]);
        await store.blockPace([{ namespace: space, key: site.key, blockedForMs: MINUTE, streak: 1 }]);
        const [closed] = await take();
        expect(closed).toMatchObject({ reserved: false, limitedBy: 'block', blockStreak: 1, probe: false });
        expect(closed!.waitMs).toBeGreaterThan(MINUTE - 5000);
        // The block is over: one request probes, the next waits for the probe's answer.
        await store.blockPace([{ namespace: space, key: site.key, blockedForMs: 0, streak: 2 }]);
        expect((await take())[0]).toMatchObject({ reserved: true, probe: true, blockStreak: 2 });
        const [waiting] = await take();
        expect(waiting).toMatchObject({ reserved: false, limitedBy: 'block' });
        expect(waiting!.waitMs).toBeGreaterThan(MINUTE);
        await store.blockPace([{ namespace: space, key: site.key, blockedForMs: null, streak: 0 }]);
        expect((await take())[0]).toMatchObject({ reserved: true, probe: false, blockStreak: 0 });
        await store.blockPace([]);
      });

      it('counts the footprint per site and network in 10-minute windows, as the site would', async () => {
        const space = ns();
        const tracks = ns();
        const site = step(space, '{fp.test}fp.test', 0);
        const visit = (kind: 'page' | 'attachment', network = '127.0.0.0/24') =>
          store.pace([
            {
              steps: [site],
              maxWaitMs: MINUTE,
              footprint: { namespace: tracks, site: 'fp.test', network, kind },
            },
          ]);
        for (const kind of ['page', 'page', 'attachment', 'page'] as const) await visit(kind);
        const [last] = await visit('attachment');
        expect(last!.windowRequests).toBe(5);
        await visit('page', '198.51.100.0/24');
        const windows = await store.readFootprint(tracks);
        expect(windows).toHaveLength(2);
        const ours = windows.find((window) => window.network === '127.0.0.0/24')!;
        expect(ours).toMatchObject({ site: 'fp.test', requests: 5, pages: 3, attachments: 2 });
        expect(ours.start % 600_000).toBe(0);
        expect(ours.firstPageAt!).toBeGreaterThanOrEqual(ours.start);
        expect(ours.lastPageAt!).toBeGreaterThanOrEqual(ours.firstPageAt!);
        expect(ours.minIntervalMs!).toBeGreaterThanOrEqual(0);
        expect(ours.minIntervalMs!).toBeLessThan(5000);
        expect(windows.find((window) => window.network === '198.51.100.0/24')).toMatchObject({
          requests: 1,
          pages: 1,
          minIntervalMs: null,
        });
        expect(await store.readFootprint(tracks, { site: 'other.test' })).toEqual([]);
        expect(await store.readFootprint(ns())).toEqual([]);
      });

      it('holds a key later, never earlier, and carries its back-off streak', async () => {
        const space = ns();
        await store.holdPace([{ namespace: space, key: 'held', holdMs: 2 * MINUTE, busyStreak: 2 }]);
        await store.holdPace([{ namespace: space, key: 'held', holdMs: 1000, busyStreak: 3 }]);
        const [grant] = await store.pace([{ steps: [step(space, 'held')], maxWaitMs: 10 * MINUTE }]);
        expect(grant!.waitMs).toBeGreaterThan(2 * MINUTE - 5000);
        expect(grant!.busyStreak).toBe(3);
        expect(await store.pace([])).toEqual([]);
        await store.holdPace([]);
      });
    });
  });
}
