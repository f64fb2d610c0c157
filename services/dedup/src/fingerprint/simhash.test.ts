import { describe, expect, it } from 'vitest';
import { fmix32, murmur32 } from '@crawler/core';
import { countFeatures, hammingDistance, parseSimhash, simhash, simhashHex } from './simhash.js';

const words = (seed: number, count: number) =>
  Array.from({ length: count }, (_, i) => `w${murmur32(`${seed}:${i}`, 7) % 5000}`);

describe('simhash', () => {
  it('gives equal hashes for equal weights and nearby hashes for nearly equal ones', () => {
    const text = words(1, 400);
    expect(simhash(countFeatures(text))).toBe(simhash(countFeatures(text.slice().reverse())));
    const edited = text.slice();
    edited[17] = 'changed';
    expect(hammingDistance(simhash(countFeatures(text)), simhash(countFeatures(edited)))).toBeLessThanOrEqual(3);
    expect(hammingDistance(simhash(countFeatures(text)), simhash(countFeatures(words(2, 400))))).toBeGreaterThan(12);
  });

  it('equals the textbook definition: each bit the sign of the weighted votes of the features', () => {
    const counts = countFeatures(words(3, 700));
    counts.square();
    let expected = 0n;
    for (let bit = 0; bit < 64; bit++) {
      let vote = 0;
      counts.forEach((low, weight) => {
        const half = bit < 32 ? low : fmix32(low ^ 0x9e3779b9);
        vote += (half >>> (bit % 32)) & 1 ? weight : -weight;
      });
      if (vote > 0) expected |= 1n << BigInt(bit);
    }
    expect(simhash(counts)).toBe(expected);
  });

  it('counts differing bits and round-trips through hex', () => {
    expect(hammingDistance(0n, 0xffffffffffffffffn)).toBe(64);
    expect(hammingDistance(0b1011n, 0b0001n)).toBe(2);
    const hash = 0x0123456789abcdefn;
    expect(simhashHex(hash)).toBe('0123456789abcdef');
    expect(parseSimhash(simhashHex(hash))).toBe(hash);
    expect(simhashHex(5n)).toHaveLength(16);
  });
});
