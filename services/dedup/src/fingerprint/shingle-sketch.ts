import { fmix32 } from '@crawler/core';
import { combineHashes, hex32 } from './feature-hash.js';

/** Content words per shingle: four content words are six to eight words of running text. */
export const SHINGLE_WORDS = 4;
/** Smallest shingle hashes kept: resemblance is estimated from 32 samples (exact for texts of 32 shingles or fewer). */
export const SKETCH_SIZE = 32;

/**
 * A bottom-k sketch (Broder 1997; Cohen and Kaplan 2007) of a text's shingles: the `SKETCH_SIZE`
 * smallest distinct hashes of its runs of four content words, ascending. Two sketches estimate the
 * resemblance (Jaccard) of the two shingle sets. It tells what 64 SimHash bits cannot: two long
 * pages of one site whose frequent words agree, SimHashes a few bits apart, share almost no run of
 * four words.
 */
export type ShingleSketch = Uint32Array;

/** Builds a sketch from a text's content-word hashes, in order (see text-fingerprint.ts). */
export class ShingleSketcher {
  private readonly window: number[] = [];
  private readonly kept: number[] = [];
  private threshold = 0xffffffff;

  add(wordHash: number): void {
    this.window.push(wordHash);
    if (this.window.length > SHINGLE_WORDS) this.window.shift();
    if (this.window.length < SHINGLE_WORDS) return;
    let hash = this.window[0]!;
    for (let i = 1; i < SHINGLE_WORDS; i++) hash = combineHashes(hash, this.window[i]!);
    hash = fmix32(hash ^ 0x5bd1e995);
    // Most shingles of a long text lie above the k smallest so far: one comparison each.
    if (this.kept.length === SKETCH_SIZE && hash >= this.threshold) return;
    if (this.kept.includes(hash)) return;
    let at = this.kept.length;
    while (at > 0 && this.kept[at - 1]! > hash) at--;
    this.kept.splice(at, 0, hash);
    if (this.kept.length > SKETCH_SIZE) this.kept.pop();
    if (this.kept.length === SKETCH_SIZE) this.threshold = this.kept[SKETCH_SIZE - 1]!;
  }

  sketch(): ShingleSketch {
    return Uint32Array.from(this.kept);
  }
}

/**
 * Estimated resemblance of two texts' shingle sets: of the k smallest hashes of the union of the
 * sketches (the k smallest of the union of the texts), the share both hold. A full sketch is never
 * read past its end: by then k hashes were taken.
 */
export function resemblance(a: ShingleSketch, b: ShingleSketch): number {
  let i = 0;
  let j = 0;
  let taken = 0;
  let shared = 0;
  while (taken < SKETCH_SIZE && (i < a.length || j < b.length)) {
    if (j >= b.length || (i < a.length && a[i]! < b[j]!)) i++;
    else if (i >= a.length || b[j]! < a[i]!) j++;
    else {
      shared++;
      i++;
      j++;
    }
    taken++;
  }
  return taken === 0 ? 0 : shared / taken;
}

/** The hashes in hex, 8 digits each, as stored with a digest's registration. */
export function encodeSketch(sketch: ShingleSketch): string {
  let out = '';
  for (const hash of sketch) out += hex32(hash);
  return out;
}

export function decodeSketch(value: string): ShingleSketch | null {
  if (!/^(?:[0-9a-f]{8})+$/.test(value)) return null;
  const hashes = new Uint32Array(value.length / 8);
  for (let i = 0; i < hashes.length; i++) hashes[i] = parseInt(value.slice(i * 8, i * 8 + 8), 16);
  return hashes;
}
