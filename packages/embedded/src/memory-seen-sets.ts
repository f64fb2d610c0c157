import {
  probeSeenEntry,
  SEEN_BLOCK_BITS,
  SEEN_BLOCK_BYTES,
  SEEN_LEVELS,
  SEEN_MARK_BITS,
  seenGenerationAt,
  seenGenerationEnd,
  seenLevelAt,
  seenWalk,
  type SeenEntry,
  type SeenProbe,
  type SeenResult,
} from '@crawler/core';

/** One shard's filter of one generation, laid out as the Redis adapter's string (seen-filter-layout.ts). */
interface Filter {
  bytes: Uint8Array;
  /** Bits set so far (the load counter): picks the level new keys go to. */
  load: number;
  expiresAt: number;
}

/**
 * A change to one filter, for the fingerprint journal: bits to set, or bytes to OR in at an offset
 * (a snapshot's), and the load after them. ORing and taking the larger load are idempotent.
 */
export interface SeenFilterChange {
  id: string;
  expiresAt: number;
  load: number;
  bits: number[];
  bytes?: { offset: number; base64: string };
}

/** A snapshot writes a filter in pieces of this many bytes, so no journal line is huge. */
const CAPTURE_CHUNK_BYTES = 64 * 1024;

/**
 * The approximate sets of markSeen in process memory: the same filters, hashes and generations as
 * the Redis adapter's script, so an embedded crawl holds back the same links in the same bytes.
 */
export class MemorySeenSets {
  private readonly filters = new Map<string, Filter>();
  /** The earliest expiry of any filter: past it, a call first lets expired filters go. */
  private nextExpiry = Number.POSITIVE_INFINITY;

  constructor(private readonly now: () => number) {}

  mark(namespace: string, entries: SeenEntry[], ttlMs: number): { results: SeenResult[]; changes: SeenFilterChange[] } {
    const now = this.now();
    if (now >= this.nextExpiry) this.sweep(now);
    const generation = seenGenerationAt(now, ttlMs);
    const id = (shard: number, index: number) => `${namespace}\u0000${shard}:${generation.lengthMs}.${index}`;
    // Per shard, looked up once per call: its current and previous generation's filters.
    const shards = new Map<number, { current: Filter | undefined; previous: Filter | undefined }>();
    const changed = new Map<Filter, SeenFilterChange>();
    const results = entries.map((entry): SeenResult => {
      const probe = probeSeenEntry(entry);
      let shard = shards.get(probe.shard);
      if (!shard) {
        shard = {
          current: this.live(id(probe.shard, generation.current), now),
          previous: this.live(id(probe.shard, generation.current - 1), now),
        };
        shards.set(probe.shard, shard);
      }
      const inCurrent = shard.current ? find(shard.current, probe) : -1;
      const inPrevious = inCurrent < 0 && shard.previous ? find(shard.previous, probe) : -1;
      const found = inCurrent >= 0 ? shard.current : inPrevious >= 0 ? shard.previous : undefined;
      const block = Math.max(inCurrent, inPrevious);
      const marked = probe.marks.map(
        (mark) => found !== undefined && hasBits(found.bytes, block, mark, SEEN_MARK_BITS),
      );
      if (inCurrent >= 0) return { seen: true, marked };
      // New, or seen only in the previous generation: (re)marked in the current one with the marks it had.
      const currentId = id(probe.shard, generation.current);
      const filter = (shard.current ??= this.create(currentId, seenGenerationEnd(generation, generation.current)));
      let change = changed.get(filter);
      if (!change) changed.set(filter, (change = { id: currentId, expiresAt: filter.expiresAt, load: 0, bits: [] }));
      add(filter, probe, found ? marked : probe.marks.map(() => true), change.bits);
      change.load = filter.load;
      return { seen: found !== undefined, marked };
    });
    return { results, changes: [...changed.values()] };
  }

  /** Replays a journaled change: ORs its bits in and keeps the larger load. */
  apply(change: SeenFilterChange): void {
    const filter = this.filters.get(change.id) ?? this.create(change.id, change.expiresAt);
    for (const bit of change.bits) setBit(filter, bit);
    if (change.bytes) {
      const bytes = Buffer.from(change.bytes.base64, 'base64');
      const end = change.bytes.offset + bytes.length;
      if (end > 0) setBit(filter, end * 8 - 1);
      bytes.forEach((byte, index) => (filter.bytes[change.bytes!.offset + index]! |= byte));
    }
    filter.load = Math.max(filter.load, change.load);
  }

  /** Every live filter as one change that rebuilds it. */
  *capture(): Generator<SeenFilterChange> {
    const now = this.now();
    for (const [id, filter] of this.filters) {
      if (filter.expiresAt <= now) continue;
      // A copy: the filter keeps changing while the snapshot is written.
      const bytes = filter.bytes.slice();
      for (let offset = 0; offset < Math.max(1, bytes.length); offset += CAPTURE_CHUNK_BYTES) {
        const base64 = Buffer.from(bytes.subarray(offset, offset + CAPTURE_CHUNK_BYTES)).toString('base64');
        yield { id, expiresAt: filter.expiresAt, load: filter.load, bits: [], bytes: { offset, base64 } };
      }
    }
  }

  /** Bytes held by the filters' bit strings. */
  get bytes(): number {
    let total = 0;
    for (const filter of this.filters.values()) total += filter.bytes.length;
    return total;
  }

  clear(): void {
    this.filters.clear();
    this.nextExpiry = Number.POSITIVE_INFINITY;
  }

  private live(id: string, now: number): Filter | undefined {
    const filter = this.filters.get(id);
    if (filter && filter.expiresAt <= now) {
      this.filters.delete(id);
      return undefined;
    }
    return filter;
  }

  private create(id: string, expiresAt: number): Filter {
    const filter = { bytes: new Uint8Array(0), load: 0, expiresAt };
    this.filters.set(id, filter);
    this.nextExpiry = Math.min(this.nextExpiry, expiresAt);
    return filter;
  }

  private sweep(now: number): void {
    this.nextExpiry = Number.POSITIVE_INFINITY;
    for (const [id, filter] of this.filters) {
      if (filter.expiresAt <= now) this.filters.delete(id);
      else this.nextExpiry = Math.min(this.nextExpiry, filter.expiresAt);
    }
  }
}

function blockOf(probe: SeenProbe, level: number): number {
  const { firstBlock, blocks } = SEEN_LEVELS[level]!;
  return firstBlock + (probe.block % blocks);
}

/** The block of the level holding the key, or -1; the newest level first: most keys sit in the larger, later levels. */
function find(filter: Filter, probe: SeenProbe): number {
  for (let level = seenLevelAt(filter.load); level >= 0; level--) {
    const block = blockOf(probe, level);
    if (hasBits(filter.bytes, block, probe, SEEN_LEVELS[level]!.keyBits)) return block;
  }
  return -1;
}

function hasBits(bytes: Uint8Array, block: number, walk: { start: number; step: number }, count: number): boolean {
  const base = block * SEEN_BLOCK_BITS;
  return seenWalk(walk, count, (bit) => ((bytes[(base + bit) >> 3] ?? 0) & (0x80 >> ((base + bit) & 7))) !== 0);
}

/** Sets a key's bits (and the chosen marks') in the level taking keys; appends the bits set to `bits`. */
function add(filter: Filter, probe: SeenProbe, withMarks: boolean[], bits: number[]): void {
  const level = seenLevelAt(filter.load);
  const block = blockOf(probe, level);
  const from = bits.length;
  const collect = (bit: number) => bits.push(block * SEEN_BLOCK_BITS + bit) > 0;
  seenWalk(probe, SEEN_LEVELS[level]!.keyBits, collect);
  probe.marks.forEach((mark, index) => {
    if (withMarks[index]) seenWalk(mark, SEEN_MARK_BITS, collect);
  });
  for (let i = from; i < bits.length; i++) setBit(filter, bits[i]!);
  filter.load += SEEN_LEVELS[level]!.keyBits + SEEN_MARK_BITS * withMarks.filter(Boolean).length;
}

/**
 * Grows the string to the end of the bit's level: the level's keys land anywhere in it, so Redis'
 * string reaches about that size after its first few SETBITs too.
 */
function setBit(filter: Filter, bit: number): void {
  const byte = bit >> 3;
  if (byte >= filter.bytes.length) {
    const block = Math.floor(byte / SEEN_BLOCK_BYTES);
    const level = SEEN_LEVELS.find((candidate) => block < candidate.firstBlock + candidate.blocks);
    const end = level ? level.firstBlock + level.blocks : block + 1;
    const grown = new Uint8Array(end * SEEN_BLOCK_BYTES);
    grown.set(filter.bytes);
    filter.bytes = grown;
  }
  filter.bytes[byte]! |= 0x80 >> (bit & 7);
}
