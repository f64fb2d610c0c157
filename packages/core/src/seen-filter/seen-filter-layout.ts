import { fmix32 } from '../murmur-finalizer.js';
import type { SeenEntry } from '../ports/fingerprints.js';

/**
 * The geometry of the approximate "seen" sets (FingerprintStore.markSeen), shared by every adapter
 * so that they answer alike, bit for bit. A set is SEEN_SHARDS filters per generation; a filter is
 * one bit string: block 0 holds the load counter (an i64 at bit 0), then the levels of a scalable
 * Bloom filter, each made of 512-bit blocks. A key's bits all sit in one block of a level (one read
 * per level), and its marks' bits in the same block, so testing a key and its marks is one read.
 */

/** Filters per generation: spreads a set over a cluster's nodes and keeps each below Redis' 512 MB string cap. */
export const SEEN_SHARDS = 64;
export const SEEN_BLOCK_BITS = 2048;
export const SEEN_BLOCK_BYTES = SEEN_BLOCK_BITS / 8;
/** Bits a key sets in level 0; each level adds one, halving that level's false-positive rate. */
export const SEEN_KEY_BITS = 14;
/** Bits a mark sets: a mark's false positive only passes a link on again, so it is kept cheap. */
export const SEEN_MARK_BITS = 4;
/** Bits set (load units) level 0 takes before the next, twice as large, begins. */
export const SEEN_LEVEL0_LOAD = 2 ** 14;
/** Levels per filter: with 64 shards about 2.6 billion keys per generation fit below 2^32 bits per filter. */
export const SEEN_MAX_LEVELS = 16;

export interface SeenLevel {
  /** Bits a key sets and tests in this level. */
  keyBits: number;
  /** The load (bits set so far in the filter) at which this level starts taking keys. */
  startLoad: number;
  firstBlock: number;
  blocks: number;
}

/**
 * Level i holds SEEN_LEVEL0_LOAD * 2^i load units in blocks sized to be half full at that load
 * (m = load / ln 2), so a key's false-positive rate there is at most 2^-(keyBits); summed over the
 * levels a generation stays below 2^-(SEEN_KEY_BITS - 1).
 */
export const SEEN_LEVELS: readonly SeenLevel[] = (() => {
  const levels: SeenLevel[] = [];
  let firstBlock = 1;
  for (let i = 0; i < SEEN_MAX_LEVELS; i++) {
    const load = SEEN_LEVEL0_LOAD * 2 ** i;
    const blocks = Math.ceil(load / Math.LN2 / SEEN_BLOCK_BITS);
    levels.push({ keyBits: SEEN_KEY_BITS + i, startLoad: SEEN_LEVEL0_LOAD * (2 ** i - 1), firstBlock, blocks });
    firstBlock += blocks;
  }
  return levels;
})();

/** The index of the level that takes new keys at this load (the last one keeps taking them when all are full). */
export function seenLevelAt(load: number): number {
  let level = 0;
  while (level + 1 < SEEN_LEVELS.length && SEEN_LEVELS[level + 1]!.startLoad <= load) level++;
  return level;
}

/**
 * A key's place: its shard, its block hash and the bit walk (start, step) inside the block; each
 * mark's walk likewise. The walk is enhanced double hashing (seenWalk), whose growing step keeps two
 * keys with the same step from sharing most of their bits, as plain double hashing would in 512 bits.
 */
export interface SeenProbe {
  shard: number;
  block: number;
  start: number;
  step: number;
  marks: { start: number; step: number }[];
}

/** The generation a time falls in: a set's TTL is covered by two generations of half its length. */
export interface SeenGeneration {
  lengthMs: number;
  current: number;
}

export function seenGenerationAt(now: number, ttlMs: number): SeenGeneration {
  const lengthMs = Math.max(1, Math.ceil(ttlMs / 2));
  return { lengthMs, current: Math.floor(now / lengthMs) };
}

/** When a generation's filters can go: once the generation after it stops being the previous one. */
export function seenGenerationEnd(generation: SeenGeneration, index: number): number {
  return (index + 2) * generation.lengthMs;
}

export function probeSeenEntry(entry: SeenEntry): SeenProbe {
  const [h1, h2] = hash64(entry.key);
  return {
    shard: h2 >>> 26,
    block: h1,
    start: h2 % SEEN_BLOCK_BITS,
    step: (h2 >>> 11) % SEEN_BLOCK_BITS,
    marks: entry.marks.map((mark) => {
      // Seeded with the key's hash: a mark's walk depends on both, at the cost of hashing the mark alone.
      const h = hash64(mark, h1)[1];
      return { start: h % SEEN_BLOCK_BITS, step: (h >>> 11) % SEEN_BLOCK_BITS };
    }),
  };
}

/** Calls `visit` with each of a walk's `count` bits in its block (the Lua script walks alike). */
export function seenWalk(
  walk: { start: number; step: number },
  count: number,
  visit: (bit: number) => boolean,
): boolean {
  let x = walk.start;
  let y = walk.step;
  for (let j = 0; j < count; j++) {
    if (!visit(x)) return false;
    x = (x + y) % SEEN_BLOCK_BITS;
    y = (y + j) % SEEN_BLOCK_BITS;
  }
  return true;
}

/**
 * Two 32-bit hashes in one pass: FNV-1a over UTF-16 code units and the same walk with MurmurHash2's multiplier, each mixed by
 * MurmurHash3's finalizer. Cheap, and well mixed for bit positions; not for adversaries.
 */
function hash64(text: string, seed = 0): [number, number] {
  let a = (0x811c9dc5 ^ seed) >>> 0;
  let b = (0x9747b28c ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x5bd1e995);
  }
  return [fmix32(a), fmix32(b)];
}
