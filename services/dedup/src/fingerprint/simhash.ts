import { murmur32 } from './feature-hash.js';

const SEED_HIGH = 0x9747b28c;
const SEED_LOW = 0x5bd1e995;

/**
 * Charikar's SimHash: every feature votes on each of the 64 bits with its weight, by the bit of its
 * hash; a bit is set where the votes are positive. Similar weight vectors give hashes that differ
 * in few bits (the angle between the vectors, over pi, is the chance a bit differs).
 */
export function simhash(weights: ReadonlyMap<string, number>): bigint {
  const votes = new Float64Array(64);
  for (const [feature, weight] of weights) {
    const high = murmur32(feature, SEED_HIGH);
    const low = murmur32(feature, SEED_LOW);
    for (let bit = 0; bit < 32; bit++) {
      votes[bit]! += (low >>> bit) & 1 ? weight : -weight;
      votes[32 + bit]! += (high >>> bit) & 1 ? weight : -weight;
    }
  }
  let low = 0;
  let high = 0;
  for (let bit = 0; bit < 32; bit++) {
    if (votes[bit]! > 0) low |= 1 << bit;
    if (votes[32 + bit]! > 0) high |= 1 << bit;
  }
  return (BigInt(high >>> 0) << 32n) | BigInt(low >>> 0);
}

/** Token counts, the usual input of `simhash`. */
export function countFeatures(features: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const feature of features) counts.set(feature, (counts.get(feature) ?? 0) + 1);
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
