import { describe, expect, it } from 'vitest';
import { murmur32 } from './feature-hash.js';
import { countFeatures, hammingDistance, parseSimhash, simhash, simhashHex } from './simhash.js';

const words = (seed: number, count: number) => Array.from({ length: count }, (_, i) => `w${murmur32(`${seed}:${i}`, 7) % 5000}`);

describe('simhash', () => {
  it('gives equal hashes for equal weights and nearby hashes for nearly equal ones', () => {
    const text = words(1, 400);
    expect(simhash(countFeatures(text))).toBe(simhash(countFeatures(text.slice().reverse())));
    const edited = text.slice();
    edited[17] = 'changed';
    expect(hammingDistance(simhash(countFeatures(text)), simhash(countFeatures(edited)))).toBeLessThanOrEqual(3);
    expect(hammingDistance(simhash(countFeatures(text)), simhash(countFeatures(words(2, 400))))).toBeGreaterThan(12);
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
