import { hammingDistance } from '../fingerprint/simhash.js';
import type { TextFingerprint } from '../fingerprint/text-fingerprint.js';

/** A page in the near-duplicate index: its fingerprints, a tag of its URL and its content digest. */
export interface IndexedPage {
  body: bigint;
  pairs: bigint;
  title: bigint | null;
  /** First 8 hex digits of the URL's id: enough to skip a page's own earlier version. */
  urlTag: string;
  /** Digest whose registration names the page's URL and verdict. */
  digest: string;
}

export interface NearThresholds {
  /** Most differing bits of the body SimHash (k). */
  body: number;
  /** Most differing bits of the headline SimHash: looser, a headline has few words. */
  title: number;
  /** Most differing bits of the word-pair SimHash. */
  pairs: number;
  /**
   * Most differing bits of the body SimHash when both pages carry the same headline (equal headline
   * SimHashes): a reprint keeps the headline while its text drifts (captions, credit lines). Only
   * for a query whose headline is specific (see `specificHeadline`); at most `body`: no widening.
   */
  sameHeadline: number;
  /** Most differing bits of the word pairs past `body` bits: stricter, so one rubric's different texts stay apart. */
  sameHeadlinePairs: number;
}

/** "Weather", "Letters to the editor" and a site's name are headlines of many texts, not of one story. */
export const MIN_HEADLINE_WORDS = 3;

export function specificHeadline(fingerprint: TextFingerprint): boolean {
  return fingerprint.title !== null && fingerprint.headlineWords >= MIN_HEADLINE_WORDS;
}

export interface NearMatch {
  page: IndexedPage;
  distance: number;
  /** Headline distance; null when either page has no headline. */
  titleDistance: number | null;
}

/**
 * Candidates that are near duplicates of the query, closest first. The headline is compared first,
 * when both pages have one: two short items in one template can share most words and still carry
 * different headlines. Then the body within k and the word pairs within their limit; or, for the
 * same specific headline, the body within `sameHeadline` and the word pairs within the stricter
 * limit. A page's own earlier versions (same URL tag) and copies with the same digest (exact
 * duplicates, decided before) are skipped.
 */
export function nearestMatches(
  query: TextFingerprint,
  urlTag: string,
  digest: string,
  candidates: Iterable<IndexedPage>,
  limits: NearThresholds,
): NearMatch[] {
  const widened = specificHeadline(query) ? limits.sameHeadline : limits.body;
  const matches: NearMatch[] = [];
  for (const page of candidates) {
    if (page.urlTag === urlTag || page.digest === digest) continue;
    const titleDistance = query.title !== null && page.title !== null ? hammingDistance(query.title, page.title) : null;
    if (titleDistance !== null && titleDistance > limits.title) continue;
    const distance = hammingDistance(query.body, page.body);
    const pairs = hammingDistance(query.pairs, page.pairs);
    const near =
      distance <= limits.body
        ? pairs <= limits.pairs
        : titleDistance === 0 && distance <= widened && pairs <= limits.sameHeadlinePairs;
    if (!near) continue;
    matches.push({ page, distance, titleDistance });
  }
  return matches.sort((a, b) => a.distance - b.distance || (a.page.digest < b.page.digest ? -1 : 1));
}

/**
 * Within one site a near duplicate is the same story under another URL (a print version, a
 * tracking link), headline and all; two items that share a template but not a headline are not,
 * even when the template outweighs their text (before the site's template is learned). So a
 * match on the same host needs its headline within k as well.
 */
export function acceptsSameSite(match: NearMatch, limits: NearThresholds): boolean {
  return match.titleDistance === null || match.titleDistance <= limits.body;
}
