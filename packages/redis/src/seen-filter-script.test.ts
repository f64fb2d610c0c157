import { SEEN_SHARDS } from '@crawler/core';
import calculateSlot from 'cluster-key-slot';
import { describe, expect, it } from 'vitest';
import { seenFilterKey } from './seen-filter-script.js';

describe('seenFilterKey', () => {
  it('puts both generations of a shard in one slot, so one script call reads one and writes the other', () => {
    for (let shard = 0; shard < SEEN_SHARDS; shard++) {
      const current = seenFilterKey('crawler:', 'url', shard, 1_296_000_000, 1366);
      expect(calculateSlot(seenFilterKey('crawler:', 'url', shard, 1_296_000_000, 1365))).toBe(calculateSlot(current));
    }
  });

  it('spreads the shards over the slots of all three masters of a 3-way cluster', () => {
    const slots = Array.from({ length: SEEN_SHARDS }, (_, shard) =>
      calculateSlot(seenFilterKey('crawler:', 'url', shard, 1000, 7)),
    );
    expect(new Set(slots).size).toBe(SEEN_SHARDS);
    const perThird = [0, 0, 0];
    for (const slot of slots) perThird[Math.min(2, Math.floor(slot / 5461))]! += 1;
    for (const count of perThird) expect(count).toBeGreaterThan(12);
  });

  it('names the generation length, so a changed TTL starts new filters', () => {
    expect(seenFilterKey('crawler:', 'url', 3, 500, 2)).not.toBe(seenFilterKey('crawler:', 'url', 3, 1000, 2));
  });
});
