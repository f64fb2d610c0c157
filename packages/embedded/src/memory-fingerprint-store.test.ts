import { describeFingerprintContract } from '@crawler/core/testing';
import { describe, expect, it } from 'vitest';
import { MemoryFingerprintStore } from './memory-fingerprint-store.js';

describeFingerprintContract('in-process', async () => ({ store: new MemoryFingerprintStore() }));

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
