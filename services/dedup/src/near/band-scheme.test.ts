import { describe, expect, it } from 'vitest';
import { bandKeys, bandScheme } from './band-scheme.js';

/** Deterministic 64-bit values, so the property checks below cannot flake. */
function* hashes(count: number): Generator<bigint> {
  let state = 0x2545f4914f6cdd1dn;
  for (let i = 0; i < count; i++) {
    state ^= state << 13n;
    state &= 0xffffffffffffffffn;
    state ^= state >> 7n;
    state ^= state << 17n;
    state &= 0xffffffffffffffffn;
    yield state;
  }
}

function flip(hash: bigint, bits: number, salt: bigint): bigint {
  let out = hash;
  const used = new Set<number>();
  for (let i = 0n; used.size < bits; i++) {
    const bit = Number((salt * 2654435761n + i * 40503n) % 64n);
    if (used.has(bit)) continue;
    used.add(bit);
    out ^= 1n << BigInt(bit);
  }
  return out;
}

describe('bandScheme', () => {
  it('uses 10 tables of at least 24-bit keys at k = 3, and grows tables with k', () => {
    expect(bandScheme(3).tables).toHaveLength(10);
    expect(bandScheme(3).blocks.map((block) => block.width)).toEqual([13, 13, 13, 13, 12]);
    expect(bandScheme(0).tables).toHaveLength(1);
    expect(bandScheme(4).tables).toHaveLength(35);
    expect(() => bandScheme(6)).toThrow(RangeError);
  });

  it('gives two hashes within k bits a shared key, for every k it supports', () => {
    for (let k = 0; k <= 5; k++) {
      const scheme = bandScheme(k);
      let salt = 1n;
      for (const hash of hashes(200)) {
        const near = flip(hash, k, salt++);
        const shared = bandKeys(scheme, hash).filter((key) => bandKeys(scheme, near).includes(key));
        expect(shared.length, `k=${k}`).toBeGreaterThan(0);
      }
    }
  });

  it('gives unrelated hashes no shared key', () => {
    const scheme = bandScheme(3);
    const all = [...hashes(2000)];
    let collisions = 0;
    for (let i = 1; i < all.length; i++)
      if (bandKeys(scheme, all[i]!).some((key) => bandKeys(scheme, all[i - 1]!).includes(key))) collisions++;
    expect(collisions).toBeLessThan(3);
  });
});
