import type { FingerprintStore } from '@crawler/core';
import { hex32 } from '../fingerprint/feature-hash.js';
import type { ShingleSketch } from '../fingerprint/shingle-sketch.js';
import { parseSimhash, simhashHex } from '../fingerprint/simhash.js';
import { bandKeys, bandScheme, type BandScheme } from './band-scheme.js';
import type { NearSubject } from './near-duplicate-rule.js';

/**
 * A page in the near-duplicate index: what the rule can screen with (see near-duplicate-rule.ts),
 * a tag of its URL and its content digest, whose registration holds the rest.
 */
export interface IndexedPage extends Omit<NearSubject, 'pageChars' | 'sketch'> {
  /** First 8 hex digits of the URL's id: enough to skip a page's own earlier version. */
  urlTag: string;
  /** Digest whose registration names the page's URL and verdict, its size and sketch. */
  digest: string;
}

export const SIMHASH_NAMESPACE = 'simhash';
/** One set per headline SimHash: the pages filed under that headline. */
export const HEADLINE_NAMESPACE = 'headline';
/** One set per anchor (a small shingle hash): the pages filed under it. */
export const ANCHOR_NAMESPACE = 'anchor';
/** Different texts sharing an anchor past which it is boilerplate (a newsletter line, a licence): see MAX_PAGES_PER_HEADLINE. */
export const MAX_PAGES_PER_ANCHOR = 8;
/**
 * Different texts under one headline past which it is a rubric ("Frequently asked questions"), not
 * a story's: its set is neither searched nor added to, so it stays about this small (pages decided at
 * once may each add one) and a lookup cheap. Copies do not count: a near duplicate is never indexed.
 */
export const MAX_PAGES_PER_HEADLINE = 8;
const NO_TITLE = '-'.repeat(16);
const NO_TITLE_KEY = '-'.repeat(8);
const MAX_TOKENS = 0xffffff;

/**
 * `n`, body, pairs and title hashes (16 hex digits each), URL tag (8), site tag (8), title key (8),
 * content words (6), whether the headline is specific (1), its anchors (8 each), then the
 * digest. Entries of the older form (no `n`) are skipped: their registrations hold no sketch to
 * verify a match with.
 */
export function encodeIndexedPage(page: IndexedPage): string {
  const anchors = Array.from({ length: ANCHORS_PER_PAGE }, (_, i) =>
    page.anchors[i] === undefined ? NO_TITLE_KEY : hex32(page.anchors[i]!),
  );
  return [
    'n',
    simhashHex(page.body),
    simhashHex(page.pairs),
    page.title === null ? NO_TITLE : simhashHex(page.title),
    page.urlTag,
    hex32(page.site),
    page.titleKey === null ? NO_TITLE_KEY : hex32(page.titleKey),
    Math.min(page.tokens, MAX_TOKENS).toString(16).padStart(6, '0'),
    page.specific ? '1' : '0',
    ...anchors,
    page.digest,
  ].join('');
}

export function decodeIndexedPage(member: string): IndexedPage | null {
  const match = ENTRY.exec(member);
  if (!match) return null;
  const [, body, pairs, title, urlTag, site, titleKey, tokens, specific, anchors, digest] =
    match as unknown as string[];
  return {
    body: parseSimhash(body!),
    pairs: parseSimhash(pairs!),
    title: title === NO_TITLE ? null : parseSimhash(title!),
    specific: specific === '1',
    titleKey: titleKey === NO_TITLE_KEY ? null : parseInt(titleKey!, 16),
    tokens: parseInt(tokens!, 16),
    site: parseInt(site!, 16),
    anchors: (anchors!.match(/.{8}/g) ?? [])
      .filter((anchor) => anchor !== NO_TITLE_KEY)
      .map((anchor) => parseInt(anchor, 16)),
    urlTag: urlTag!,
    digest: digest!,
  };
}

/** Where a page is looked up and filed: its body SimHash, its headline (a specific one), its anchors. */
export interface IndexKeys {
  body: bigint;
  headline: bigint | null;
  /** The smallest shingle hashes of its text (`anchorsOf`). */
  anchors: readonly number[];
}

export interface Lookup {
  /** Pages sharing a band bucket with the body, filed under the headline or an anchor, each once. */
  pages: IndexedPage[];
  /** The headline was looked up and its set has room: it may widen the body distance, and the page may be filed under it. */
  headlineOpen: boolean;
  /** Anchors whose sets have room: the page may be filed under them. */
  openAnchors: number[];
}

/**
 * Anchors a page is filed under: the smallest hashes of its shingle sketch. Two texts of resemblance
 * J share the smallest hash of their union with probability J. The reprints of the labelled sets
 * (resemblance 0.53 to 1) share one of their two smallest 175 times in 181, of their three smallest
 * 179 times, where their body SimHashes are within k bits 143 times.
 */
export const ANCHORS_PER_PAGE = 3;
const ENTRY = new RegExp(
  `^n([0-9a-f]{16})([0-9a-f]{16})([0-9a-f]{16}|-{16})([0-9a-f]{8})([0-9a-f]{8})([0-9a-f]{8}|-{8})([0-9a-f]{6})([01])((?:[0-9a-f]{8}|-{8}){${ANCHORS_PER_PAGE}})([0-9a-f]+)$`,
);

export function anchorsOf(sketch: ShingleSketch): number[] {
  return Array.from(sketch.subarray(0, ANCHORS_PER_PAGE));
}

/**
 * The near-duplicate index in the fingerprint store: one set per band bucket of the body SimHash
 * (see band-scheme.ts), one per headline (a reprint keeps its headline while its text drifts past k
 * bits), one per anchor (a reprint under its own headline keeps most of its runs of words). A lookup
 * is one batched read per kind of set; an insert one batched add. Sets expire with the digests. A
 * headline or an anchor that many different texts share is a rubric or boilerplate: its full set is
 * neither read nor added to, so every set read stays small.
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
    return decodeMembers(buckets);
  }

  /** Band candidates of the body, and the pages filed under the headline (a specific one) and the anchors. */
  async lookup(keys: IndexKeys): Promise<Lookup> {
    const anchorKeys = keys.anchors.map(hex32);
    const [buckets, [filed], anchored] = await Promise.all([
      this.store.members(SIMHASH_NAMESPACE, bandKeys(this.scheme, keys.body)),
      keys.headline === null ? [null] : this.store.members(HEADLINE_NAMESPACE, [simhashHex(keys.headline)]),
      anchorKeys.length === 0 ? [] : this.store.members(ANCHOR_NAMESPACE, anchorKeys),
    ]);
    const headlineOpen = filed !== null && filed !== undefined && filed.length < MAX_PAGES_PER_HEADLINE;
    const open = anchored.map((members) => members.length < MAX_PAGES_PER_ANCHOR);
    const sets = [...buckets, ...(headlineOpen ? [filed] : []), ...anchored.filter((_, i) => open[i])];
    return {
      pages: decodeMembers(sets),
      headlineOpen,
      openAnchors: keys.anchors.filter((_, i) => open[i]),
    };
  }

  /**
   * The headline and anchor sets a page may be filed under without a lookup (an unchanged page
   * re-filing itself): those with room, or that already hold the page (filing it again renews the TTL).
   */
  async openSets(page: IndexedPage, keys: IndexKeys): Promise<{ headlineOpen: boolean; openAnchors: number[] }> {
    const member = encodeIndexedPage(page);
    const [[filed], anchored] = await Promise.all([
      keys.headline === null ? [null] : this.store.members(HEADLINE_NAMESPACE, [simhashHex(keys.headline)]),
      keys.anchors.length === 0 ? [] : this.store.members(ANCHOR_NAMESPACE, keys.anchors.map(hex32)),
    ]);
    const room = (members: string[], max: number) => members.length < max || members.includes(member);
    return {
      headlineOpen: filed !== null && filed !== undefined && room(filed, MAX_PAGES_PER_HEADLINE),
      openAnchors: keys.anchors.filter((_, i) => room(anchored[i]!, MAX_PAGES_PER_ANCHOR)),
    };
  }

  /** Files the page in its band buckets and, where `under` says so (a lookup found room), under its headline and anchors. */
  async add(page: IndexedPage, under: { headline: bigint | null; anchors: readonly number[] }): Promise<void> {
    const member = encodeIndexedPage(page);
    const set = (namespace: string, key: string) => ({ namespace, key, members: [member], ttlMs: this.ttlMs });
    const sets = bandKeys(this.scheme, page.body).map((key) => set(SIMHASH_NAMESPACE, key));
    if (under.headline !== null) sets.push(set(HEADLINE_NAMESPACE, simhashHex(under.headline)));
    for (const anchor of under.anchors) sets.push(set(ANCHOR_NAMESPACE, hex32(anchor)));
    await this.store.addToSets(sets);
  }
}

function decodeMembers(sets: readonly string[][]): IndexedPage[] {
  const seen = new Set<string>();
  const pages: IndexedPage[] = [];
  for (const member of sets.flat()) {
    if (seen.has(member)) continue;
    seen.add(member);
    const page = decodeIndexedPage(member);
    if (page) pages.push(page);
  }
  return pages;
}
