/**
 * The permuted-block index of Manku, Jain and Das Sarma (WWW 2007). Cut the 64 bits into b blocks;
 * two hashes at most k bits apart agree exactly on at least b - k blocks (each differing bit spoils
 * one block). So one table per choice of b - k blocks, keyed by those blocks' bits, finds every
 * hash within k among the entries of a few buckets. b is the smallest count that gives keys of at
 * least MIN_KEY_BITS bits: a bucket then holds stored/2^24 entries, under one at 10 million pages,
 * so a lookup reads the same few keys at 10 thousand and at 10 million pages.
 */
export interface BandScheme {
  maxDistance: number;
  /** Bit offset and width of each block, from the low end. */
  blocks: { shift: bigint; width: number }[];
  /** Per table, the indexes of the blocks that form its key. */
  tables: number[][];
}

const MIN_KEY_BITS = 24;
/** Past 5 bits the table count explodes (210 tables at 6); beyond that, use a different index. */
export const MAX_INDEXED_DISTANCE = 5;

export function bandScheme(maxDistance: number): BandScheme {
  if (!Number.isInteger(maxDistance) || maxDistance < 0 || maxDistance > MAX_INDEXED_DISTANCE)
    throw new RangeError(`SimHash distance must be 0..${MAX_INDEXED_DISTANCE}, got ${maxDistance}`);
  let count = maxDistance + 1;
  while ((count - maxDistance) * Math.floor(64 / count) < MIN_KEY_BITS) count++;
  const base = Math.floor(64 / count);
  const extra = 64 % count;
  const blocks: BandScheme['blocks'] = [];
  let offset = 0;
  for (let i = 0; i < count; i++) {
    const width = base + (i < extra ? 1 : 0);
    blocks.push({ shift: BigInt(offset), width });
    offset += width;
  }
  return { maxDistance, blocks, tables: combinations(count, count - maxDistance) };
}

/** The bucket key of a hash in every table: table number and the bits of its blocks, in hex. */
export function bandKeys(scheme: BandScheme, hash: bigint): string[] {
  return scheme.tables.map((table, index) => {
    let key = 0n;
    for (const block of table) {
      const { shift, width } = scheme.blocks[block]!;
      key = (key << BigInt(width)) | ((hash >> shift) & ((1n << BigInt(width)) - 1n));
    }
    return `${index}.${key.toString(16)}`;
  });
}

function combinations(n: number, choose: number): number[][] {
  const out: number[][] = [];
  const pick = (start: number, chosen: number[]) => {
    if (chosen.length === choose) return void out.push(chosen.slice());
    for (let i = start; i < n; i++) {
      chosen.push(i);
      pick(i + 1, chosen);
      chosen.pop();
    }
  };
  pick(0, []);
  return out;
}
