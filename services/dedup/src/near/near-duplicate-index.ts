import type { FingerprintStore } from '@crawler/core';
import { parseSimhash, simhashHex } from '../fingerprint/simhash.js';
import { bandKeys, bandScheme, type BandScheme } from './band-scheme.js';
import type { IndexedPage } from './nearest-match.js';

export const SIMHASH_NAMESPACE = 'simhash';
const NO_TITLE = '-'.repeat(16);

/** body, pairs and title hashes (16 hex digits each), URL tag (8), then the digest. */
export function encodeIndexedPage(page: IndexedPage): string {
  return `${simhashHex(page.body)}${simhashHex(page.pairs)}${page.title === null ? NO_TITLE : simhashHex(page.title)}${page.urlTag}${page.digest}`;
}

export function decodeIndexedPage(member: string): IndexedPage | null {
  if (member.length < 57 || !/^[0-9a-f]{32}(?:[0-9a-f]{16}|-{16})[0-9a-f]{8}/.test(member)) return null;
  const title = member.slice(32, 48);
  return { body: parseSimhash(member.slice(0, 16)), pairs: parseSimhash(member.slice(16, 32)), title: title === NO_TITLE ? null : parseSimhash(title), urlTag: member.slice(48, 56), digest: member.slice(56) };
}

/**
 * SimHashes in the fingerprint store, one set per band bucket (see band-scheme.ts). A lookup is one
 * batched read of the query's buckets; an insert one batched add. Buckets expire with the digests.
 */
export class NearDuplicateIndex {
  private readonly scheme: BandScheme;
  private readonly ttlMs: number;

  constructor(
    private readonly store: FingerprintStore,
    options: { maxDistance: number; ttlMs: number },
  ) {
    this.scheme = bandScheme(options.maxDistance);
    this.ttlMs = options.ttlMs;
  }

  get tables(): number {
    return this.scheme.tables.length;
  }

  /** Every indexed page sharing a bucket with `body`: a superset of those within k bits. */
  async candidates(body: bigint): Promise<IndexedPage[]> {
    const buckets = await this.store.members(SIMHASH_NAMESPACE, bandKeys(this.scheme, body));
    const seen = new Set<string>();
    const pages: IndexedPage[] = [];
    for (const member of buckets.flat()) {
      if (seen.has(member)) continue;
      seen.add(member);
      const page = decodeIndexedPage(member);
      if (page) pages.push(page);
    }
    return pages;
  }

  async add(page: IndexedPage): Promise<void> {
    const member = encodeIndexedPage(page);
    await this.store.addToSets(bandKeys(this.scheme, page.body).map((key) => ({ namespace: SIMHASH_NAMESPACE, key, members: [member], ttlMs: this.ttlMs })));
  }
}
