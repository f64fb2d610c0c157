import { fmix32 } from '@crawler/core';

/** An order-sensitive hash of two hashes (a word pair from its words' hashes). */
export function combineHashes(first: number, second: number): number {
  return fmix32(Math.imul(first, 0xcc9e2d51) ^ second);
}

/** Eight hex digits: the compact form of a 32-bit hash in stored keys and samples. */
export function hex32(value: number): string {
  return (value >>> 0).toString(16).padStart(8, '0');
}
