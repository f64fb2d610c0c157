import type { FingerprintStore } from '@crawler/core';
import { parseSimhash, simhashHex } from '../fingerprint/simhash.js';
import { bandKeys, bandScheme, type BandScheme } from './band-scheme.js';
import type { IndexedPage } from './nearest-match.js';

export const SIMHASH_NAMESPACE = 'simhash';
/** One set per headline SimHash: the pages filed under that headline. */
export const HEADLINE_NAMESPACE = 'headline';
/**
 * Different texts under one headline past which it is a rubric ("Frequently asked questions"), not
 * a story's: its set is neither searched nor added to, so it stays about this small (pages decided at
 * once may each add one) and a lookup cheap. Copies do not count: a near duplicate is never indexed.
 */
export const MAX_PAGES_PER_HEADLINE = 8;
const NO_TITLE = '-'.repeat(16);

/** body, pairs and title hashes (16 hex digits each), URL tag (8), then the digest. */
export function encodeIndexedPage(page: IndexedPage): string {
  return `${simhashHex(page.body)}${simhashHex(page.pairs)}${page.title === null ? NO_TITLE : simhashHex(page.title)}${page.urlTag}${page.digest}`;
}

export function decodeIndexedPage(member: string): IndexedPage | null {
  if (member.length < 57 || !/^[0-9a-f]{32}(?:[0-9a-f]{16}|-{16})[0-9a-f]{8}/.test(member)) return null;
  const title = member.slice(32, 48);
  return {
    body: parseSimhash(member.slice(0, 16)),
    pairs: parseSimhash(member.slice(16, 32)),
    title: title === NO_TITLE ? null : parseSimhash(title),
    urlTag: member.slice(48, 56),
    digest: member.slice(56),
  };
}

export interface Lookup {
  /** Pages sharing a band bucket with the body or filed under the headline, each once. */
  pages: IndexedPage[];
  /** The headline was looked up and its set has room: it may widen the body distance, and the page may be filed under it. */
  headlineOpen: boolean;
}

/**
 * SimHashes in the fingerprint store, one set per band bucket (see band-scheme.ts), and one per
 * headline: a reprint keeps its headline while its text drifts past k bits. A lookup is one batched
 * read of the query's buckets and one of its headline's set; an insert one batched add. Sets
 * expire with the digests.
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

  /** Band candidates of `body` and, for a headline given (a specific one), the pages filed under it. */
  async lookup(body: bigint, headline: bigint | null): Promise<Lookup> {
    const [byBody, [filed]] = await Promise.all([
      this.candidates(body),
      headline === null ? [null] : this.store.members(HEADLINE_NAMESPACE, [simhashHex(headline)]),
    ]);
    if (!filed || filed.length >= MAX_PAGES_PER_HEADLINE) return { pages: byBody, headlineOpen: false };
    const known = new Set(byBody.map(encodeIndexedPage));
    const pages = byBody.concat(
      filed.filter((member) => !known.has(member)).flatMap((member) => decodeIndexedPage(member) ?? []),
    );
    return { pages, headlineOpen: true };
  }

  /**
   * Whether a page may be filed under its headline without a lookup (an unchanged page re-indexing
   * itself): the headline's set has room, or already holds the page (filing it again renews its TTL).
   */
  async headlineOpen(page: IndexedPage): Promise<boolean> {
    if (page.title === null) return false;
    const [filed] = await this.store.members(HEADLINE_NAMESPACE, [simhashHex(page.title)]);
    return filed!.length < MAX_PAGES_PER_HEADLINE || filed!.includes(encodeIndexedPage(page));
  }

  /** Files the page in its band buckets and, when `underHeadline` (a lookup found room), under its headline. */
  async add(page: IndexedPage, underHeadline = false): Promise<void> {
    const member = encodeIndexedPage(page);
    const sets = bandKeys(this.scheme, page.body).map((key) => ({
      namespace: SIMHASH_NAMESPACE,
      key,
      members: [member],
      ttlMs: this.ttlMs,
    }));
    if (underHeadline && page.title !== null)
      sets.push({ namespace: HEADLINE_NAMESPACE, key: simhashHex(page.title), members: [member], ttlMs: this.ttlMs });
    await this.store.addToSets(sets);
  }
}
