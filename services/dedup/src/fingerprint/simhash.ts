import { fmix32, murmur32 } from './feature-hash.js';

const SEED = 0x9747b28c;

/** A feature's 32-bit hash; `simhash` widens it to 64 bits. */
export function featureHash(feature: string): number {
  return murmur32(feature, SEED);
}

/**
 * Charikar's SimHash: every feature votes on each of the 64 bits with its weight, by the bit of its
 * hash; a bit is set where the votes are positive. Similar weight vectors give hashes that differ
 * in few bits (the angle between the vectors, over pi, is the chance a bit differs). Features come
 * as 32-bit hashes (hashed once per distinct word); the high half is the finalizer of the low one,
 * so two features agree on all 64 bits only when their 32-bit hashes do.
 */
export function simhash(weights: ReadonlyMap<number, number>): bigint {
  // A bit's vote is (weight where it is set) - (weight where it is not) = 2 * set - total, so only
  // set bits are visited (lowest first): several times faster than a signed add for all 64.
  const set = new Float64Array(64);
  let total = 0;
  for (const [low, weight] of weights) {
    total += weight;
    for (let bits = low, offset = 31; bits !== 0; ) {
      const lowest = bits & -bits;
      set[offset - Math.clz32(lowest)]! += weight;
      bits ^= lowest;
    }
    for (let bits = fmix32(low ^ 0x9e3779b9) | 0, offset = 63; bits !== 0; ) {
      const lowest = bits & -bits;
      set[offset - Math.clz32(lowest)]! += weight;
      bits ^= lowest;
    }
  }
  let low = 0;
  let high = 0;
  for (let bit = 0; bit < 32; bit++) {
    if (2 * set[bit]! > total) low |= 1 << bit;
    if (2 * set[32 + bit]! > total) high |= 1 << bit;
  }
  return (BigInt(high >>> 0) << 32n) | BigInt(low >>> 0);
}

/** Counts of each feature, keyed by its hash: the usual input of `simhash`. */
export function countFeatures(features: Iterable<string>): Map<number, number> {
  const counts = new Map<number, number>();
  for (const feature of features) {
    const hash = featureHash(feature);
    counts.set(hash, (counts.get(hash) ?? 0) + 1);
  }
  return counts;
}

export function hammingDistance(a: bigint, b: bigint): number {
  const x = a ^ b;
  return popcount32(Number(x & 0xffffffffn)) + popcount32(Number(x >> 32n));
}

function popcount32(value: number): number {
  let x = value >>> 0;
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** 16 hex digits, the form stored and shown. */
export function simhashHex(hash: bigint): string {
  return hash.toString(16).padStart(16, '0');
}

export function parseSimhash(hex: string): bigint {
  return BigInt(`0x${hex}`);
}
