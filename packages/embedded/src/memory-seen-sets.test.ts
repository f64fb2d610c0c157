import { SEEN_KEY_BITS, SEEN_SHARDS } from '@crawler/core';
import { describe, expect, it } from 'vitest';
import { MemorySeenSets } from './memory-seen-sets.js';

const DAY = 86_400_000;
const keys = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => ({ key: `${prefix}${i}`, marks: [] }));

describe('MemorySeenSets', () => {
  it('holds back at most 1 in 1,000 keys it was never given, within about 6 bytes a key at 200,000 keys', () => {
    const sets = new MemorySeenSets(() => 0);
    const inserted = 200_000;
    for (let i = 0; i < inserted; i += 1000) sets.mark('url', keys(`in-${i}-`, 1000), DAY);
    const bytes = sets.bytes;
    let falsePositives = 0;
    // Queries are marked too: the filter only gets fuller while they run, so the rate is not understated.
    for (let i = 0; i < 100_000; i += 1000)
      falsePositives += sets.mark('url', keys(`out-${i}-`, 1000), DAY).results.filter((result) => result.seen).length;
    // The bound of two generations at full load: every level's rate summed, 2 * 2^-(SEEN_KEY_BITS - 1).
    expect(falsePositives / 100_000).toBeLessThanOrEqual(Math.min(0.001, 4 * 2 ** -SEEN_KEY_BITS));
    expect(bytes / inserted).toBeLessThan(8);
  });

  it('remembers a key between half the TTL and the TTL after it was last seen, carrying its marks over', () => {
    let now = 0;
    const sets = new MemorySeenSets(() => now);
    const mark = (key: string, marks: string[] = ['fetch']) => sets.mark('url', [{ key, marks }], 1000).results[0]!;
    expect(mark('kept').seen).toBe(false);
    expect(mark('left').seen).toBe(false);
    now = 499; // generation 0 still
    expect(mark('kept')).toEqual({ seen: true, marked: [true] });
    now = 900; // generation 1: both found in the previous one; 'kept' is marked again in the current
    expect(mark('kept')).toEqual({ seen: true, marked: [true] });
    now = 1400; // generation 2: generation 0 is gone, 1 is the previous
    expect(mark('kept')).toEqual({ seen: true, marked: [true] });
    expect(mark('left', [])).toEqual({ seen: false, marked: [] });
  });

  it('lets the filters of past generations go, so memory follows the keys of the last TTL', () => {
    let now = 0;
    const sets = new MemorySeenSets(() => now);
    sets.mark('url', keys('a', 5000), 1000);
    const one = sets.bytes;
    expect(one).toBeGreaterThan(0);
    now = 600;
    sets.mark('url', keys('b', 5000), 1000);
    expect(sets.bytes).toBe(2 * one);
    now = 1200; // generation 2: generation 1 is the previous, 0 has gone
    sets.mark('url', keys('c', 5000), 1000);
    expect(sets.bytes).toBe(2 * one);
    expect(sets.mark('url', keys('b', 100), 1000).results.every((result) => result.seen)).toBe(true);
    expect(sets.mark('url', keys('a', 100), 1000).results.some((result) => result.seen)).toBe(false);
  });

  it('rebuilds the same filters from its changes, and from its snapshot', () => {
    const sets = new MemorySeenSets(() => 0);
    const replayed = new MemorySeenSets(() => 0);
    const fromSnapshot = new MemorySeenSets(() => 0);
    for (let i = 0; i < 20_000; i += 500) {
      for (const change of sets.mark('url', keys(`k${i}-`, 500), DAY).changes) replayed.apply(change);
    }
    for (const change of sets.capture()) fromSnapshot.apply(change);
    const probe = [...keys('k0-', 300), ...keys('other-', 300)];
    const answer = sets.mark('url', probe, DAY).results;
    expect(answer.filter((result) => result.seen).length).toBeGreaterThanOrEqual(300);
    expect(replayed.mark('url', probe, DAY).results).toEqual(answer);
    expect(fromSnapshot.mark('url', probe, DAY).results).toEqual(answer);
    expect(replayed.bytes).toBe(sets.bytes);
  });

  it('spreads keys over all shards', () => {
    const sets = new MemorySeenSets(() => 0);
    const { changes } = sets.mark('url', keys('k', 2000), DAY);
    expect(changes.length).toBe(SEEN_SHARDS);
  });
});
