// Everything the web serves is derived from these functions, so one seed reproduces it byte for byte.
import { fmix32 } from '@crawler/core';

/** A 32-bit FNV-1a hash of a string; stable across platforms and Node versions. */
function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  // FNV-1a alone mixes the last characters poorly; Murmur's finalizer spreads them over all bits.
  return fmix32(hash);
}

/** A number in [0, 1) fixed by the seed and the key parts. */
export function unitHash(seed: number, ...parts: (string | number)[]): number {
  return hashString(`${seed}|${parts.join('|')}`) / 0x1_0000_0000;
}

export interface Random {
  /** A number in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
}

/** A mulberry32 generator keyed by the seed and the key parts. */
export function createRandom(seed: number, ...parts: (string | number)[]): Random {
  let state = hashString(`${seed}|${parts.join('|')}`);
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 0x1_0000_0000;
  };
  const int = (n: number): number => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => {
    if (items.length === 0) throw new RangeError('cannot pick from an empty list');
    return items[int(items.length)] as T;
  };
  return { next, int, pick };
}
