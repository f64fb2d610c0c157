import { describe, expect, it } from 'vitest';
import { FeatureCounts } from './feature-counts.js';
import { murmur32 } from '@crawler/core';

describe('FeatureCounts', () => {
  it('counts like a Map through growth, with unsigned keys, zero among them', () => {
    const counts = new FeatureCounts(2);
    const reference = new Map<number, number>();
    for (let i = 0; i < 5000; i++) {
      const hash = i % 7 === 0 ? 0 : murmur32(`w${i % 1500}`, 1) | 0;
      counts.add(hash, 1 + (i % 3));
      reference.set(hash >>> 0, (reference.get(hash >>> 0) ?? 0) + 1 + (i % 3));
    }
    expect(counts.size).toBe(reference.size);
    const seen = new Map<number, number>();
    counts.forEach((hash, weight) => seen.set(hash, weight));
    expect(seen).toEqual(reference);
    expect(seen.get(0)).toBe(reference.get(0));
  });

  it('squares every weight in place', () => {
    const counts = new FeatureCounts();
    counts.add(1);
    counts.add(1);
    counts.add(0xffffffff, 3);
    counts.square();
    const squared = new Map<number, number>();
    counts.forEach((hash, weight) => squared.set(hash, weight));
    expect(squared).toEqual(
      new Map([
        [1, 4],
        [0xffffffff, 9],
      ]),
    );
  });
});
