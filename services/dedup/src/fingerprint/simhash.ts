import { FeatureCounts } from './feature-counts.js';
import { fmix32, murmur32 } from '@crawler/core';

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
export function simhash(weights: FeatureCounts): bigint {
  // Votes are summed per 4-bit digit value first (16 adds a feature instead of one per set bit);
  // a bit's vote is then the sum over the digit values that have it set. Weights are whole
  // numbers, so the order of the sums does not change the result.
  const digits = new Float64Array(256);
  let total = 0;
  weights.forEach((low, weight) => {
    total += weight;
    const high = fmix32(low ^ 0x9e3779b9);
    for (let shift = 0, row = 0; shift < 32; shift += 4, row += 16) {
      digits[row + ((low >>> shift) & 15)]! += weight;
      digits[128 + row + ((high >>> shift) & 15)]! += weight;
    }
  });
  let low = 0;
  let high = 0;
  for (let bit = 0; bit < 32; bit++) {
    const row = (bit >>> 2) << 4;
    const mask = 1 << (bit & 3);
    let lowVotes = 0;
    let highVotes = 0;
    for (let value = 0; value < 16; value++) {
      if ((value & mask) === 0) continue;
      lowVotes += digits[row + value]!;
      highVotes += digits[128 + row + value]!;
    }
    if (2 * lowVotes > total) low |= 1 << bit;
    if (2 * highVotes > total) high |= 1 << bit;
  }
  return (BigInt(high >>> 0) << 32n) | BigInt(low >>> 0);
}

/** Counts of each feature, keyed by its hash: the usual input of `simhash`. */
export function countFeatures(features: Iterable<string>): FeatureCounts {
  const counts = new FeatureCounts();
  for (const feature of features) counts.add(featureHash(feature));
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
