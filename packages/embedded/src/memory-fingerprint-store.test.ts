import { appendFileSync, existsSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeFingerprintContract } from '@crawler/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryFingerprintStore } from './memory-fingerprint-store.js';

describeFingerprintContract('in-process', async () => ({ store: new MemoryFingerprintStore() }));

describeFingerprintContract('in-process, kept in a folder', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fingerprints-contract-'));
  return {
    store: await MemoryFingerprintStore.open(dir, { compactAfterBytes: 4096 }),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
});

describe('MemoryFingerprintStore bound', () => {
  it('evicts the least recently used keys past maxEntries', async () => {
    const store = new MemoryFingerprintStore({ maxEntries: 3 });
    const entry = (key: string) => ({ namespace: 'd', key, value: key, ttlMs: 60_000 });
    await store.putIfAbsent([entry('a'), entry('b'), entry('c')]);
    await store.putIfAbsent([entry('a')]); // a is used again: b is now the oldest
    await store.putIfAbsent([entry('d')]);
    expect(store.size).toBe(3);
    expect(await store.get('d', ['a', 'b', 'c', 'd'])).toEqual(['a', null, 'c', 'd']);
  });

  it('evicts the least recently used sets past maxEntries', async () => {
    const store = new MemoryFingerprintStore({ maxEntries: 2 });
    await store.addToSets([
      { namespace: 'band', key: 'a', members: ['1'], ttlMs: 60_000 },
      { namespace: 'band', key: 'b', members: ['2'], ttlMs: 60_000 },
    ]);
    await store.addToSet('band', 'a', ['3'], 60_000); // a is used again: b is now the oldest
    await store.addToSet('band', 'c', ['4'], 60_000);
    expect(await store.members('band', ['a', 'b', 'c'])).toEqual([['1', '3'], [], ['4']]);
  });
});

describe('MemoryFingerprintStore kept in a folder', () => {
  const dirs: string[] = [];
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'fingerprints-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  const entry = (key: string, value = key, ttlMs = 60_000) => ({ namespace: 'digest', key, value, ttlMs });

  /** A clock the test moves: TTLs are checked against it on reopen. */
  function clock(start = 1_000_000) {
    const state = { now: start };
    return { state, now: () => state.now };
  }

  it('comes back with values, sets, deletions and refreshed TTLs', async () => {
    const dir = folder();
    const time = clock();
    const first = await MemoryFingerprintStore.open(dir, { now: time.now });
    await first.putIfAbsent([entry('kept'), entry('deleted'), entry('refreshed', 'r', 1000)]);
    await first.set([entry('overwritten', 'new')]);
    await first.addToSets([{ namespace: 'band', key: 'b1', members: ['x', 'y'], ttlMs: 60_000 }]);
    await first.addToSet('band', 'b1', ['z'], 60_000);
    await first.delete('digest', ['deleted']);
    time.state.now += 900;
    await first.putIfAbsent([entry('refreshed', 'ignored', 1000)]); // a hit: TTL refreshed to now + 1000
    await first.close();

    time.state.now += 500; // past the first TTL of "refreshed", within the refreshed one
    const second = await MemoryFingerprintStore.open(dir, { now: time.now });
    expect(await second.get('digest', ['kept', 'deleted', 'refreshed', 'overwritten'])).toEqual([
      'kept',
      null,
      'r',
      'new',
    ]);
    expect((await second.members('band', ['b1']))[0]!.sort()).toEqual(['x', 'y', 'z']);
    expect(await second.putIfAbsent([entry('kept', 'other')])).toEqual([{ created: false, existing: 'kept' }]);
    await second.close();

    time.state.now += 120_000; // everything expired
    const third = await MemoryFingerprintStore.open(dir, { now: time.now });
    expect(third.size).toBe(0);
    await third.close();
  });

  it('is durable when a call returns, without a close (a process killed right after)', async () => {
    const dir = folder();
    const store = await MemoryFingerprintStore.open(dir);
    await store.putIfAbsent([entry('a')]);
    const copy = await MemoryFingerprintStore.open(dir);
    expect(await copy.get('digest', ['a'])).toEqual(['a']);
    await copy.close();
    await store.close();
  });

  it('ignores a torn last line and keeps what is appended after it', async () => {
    const dir = folder();
    const journal = join(dir, 'fingerprints.journal.jsonl');
    const first = await MemoryFingerprintStore.open(dir);
    await first.putIfAbsent([entry('before')]);
    await first.close();
    appendFileSync(journal, '["v","digest\\u0000torn","va');
    const second = await MemoryFingerprintStore.open(dir);
    expect(await second.get('digest', ['before', 'torn'])).toEqual(['before', null]);
    await second.putIfAbsent([entry('after')]);
    await second.close();
    const third = await MemoryFingerprintStore.open(dir);
    expect(await third.get('digest', ['before', 'after'])).toEqual(['before', 'after']);
    await third.close();
  });

  it('folds the journal into a snapshot as it grows and reloads the same state', async () => {
    const dir = folder();
    const store = await MemoryFingerprintStore.open(dir, { compactAfterBytes: 2000 });
    for (let i = 0; i < 200; i++) {
      await store.putIfAbsent([entry(`k${i}`)]);
      await store.addToSet('band', `b${i % 7}`, [`m${i}`], 60_000);
      if (i % 10 === 0) await store.delete('digest', [`k${i}`]);
    }
    await store.close();
    expect(existsSync(join(dir, 'fingerprints.snapshot.jsonl'))).toBe(true);
    const reopened = await MemoryFingerprintStore.open(dir);
    const values = await reopened.get(
      'digest',
      Array.from({ length: 200 }, (_, i) => `k${i}`),
    );
    expect(values.filter((value) => value === null).length).toBe(20);
    expect(values[199]).toBe('k199');
    const bands = await reopened.members(
      'band',
      Array.from({ length: 7 }, (_, i) => `b${i}`),
    );
    expect(bands.flat().length).toBe(200);
    await reopened.close();
  });

  it('finishes a snapshot a crash interrupted, losing nothing', async () => {
    const dir = folder();
    const store = await MemoryFingerprintStore.open(dir);
    await store.putIfAbsent([entry('old')]);
    await store.close();
    // As if a snapshot had begun: the journal set aside, a fresh one started, then the process died.
    renameSync(join(dir, 'fingerprints.journal.jsonl'), join(dir, 'fingerprints.journal.old.jsonl'));
    appendFileSync(
      join(dir, 'fingerprints.journal.jsonl'),
      `${JSON.stringify(['v', 'digest\u0000new', 'new', 9e15])}\n`,
    );
    const reopened = await MemoryFingerprintStore.open(dir);
    expect(await reopened.get('digest', ['old', 'new'])).toEqual(['old', 'new']);
    expect(readdirSync(dir).sort()).toEqual(['fingerprints.journal.jsonl', 'fingerprints.snapshot.jsonl']);
    await reopened.close();
  });
});
