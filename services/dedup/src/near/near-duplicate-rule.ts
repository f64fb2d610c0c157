import { resemblance, type ShingleSketch } from '../fingerprint/shingle-sketch.js';
import { hammingDistance } from '../fingerprint/simhash.js';

/**
 * What the rule knows of a page: its fingerprints, its site and its size. The stage has all of it
 * for the page it decides; of an indexed page it reads the SimHashes, site, title key and word count
 * from the index entry, and the sketch and page size from its digest's registration.
 */
export interface NearSubject {
  body: bigint;
  pairs: bigint;
  /** Headline SimHash; null without a title. */
  title: bigint | null;
  /** A headline of three content words or more that is neither the site's name nor a guess (see text-fingerprint.ts). */
  specific: boolean;
  /** Hash of the whole title (see `titleKey`). */
  titleKey: number | null;
  /** Content words of the main text. */
  tokens: number;
  /** Tag of the host (see `siteTag`). */
  site: number;
  /** The smallest hashes of its sketch: pages sharing one are looked at (near-duplicate-index.ts). */
  anchors: readonly number[];
  /** Characters of visible text on the whole page; null when not known yet. */
  pageChars: number | null;
  /** Null when not known yet, or for a page registered before sketches were kept. */
  sketch: ShingleSketch | null;
}

export interface NearLimits {
  /** Most differing bits of the body SimHashes (k): what the band index finds. */
  body: number;
  /** Most differing bits of the word-pair SimHashes. */
  pairs: number;
  /**
   * Most differing bits of the body SimHashes for the same specific headline (found through the
   * headline's set); at most `body`: the headline lookup is off.
   */
  sameHeadline: number;
  /** Word-pair limit past `body` bits. */
  sameHeadlinePairs: number;
  /** Content words both texts need. */
  minTokens: number;
  /** Least estimated resemblance of the two texts' runs of four content words. */
  resemblance: number;
}

export type NearDecision = 'near_duplicate' | 'different' | 'too_short';

export interface NearJudgement {
  decision: NearDecision;
  /** Which check decided, in words. */
  reason: string;
  bodyDistance: number;
  pairsDistance: number;
  /** Null when either page has no headline. */
  titleDistance: number | null;
  /** Estimated resemblance; null when the checks before it decided. */
  resemblance: number | null;
}

/**
 * Within one site the same page under another URL carries the same template: two pages of one site
 * whose visible text differs more than this many times are not copies, whatever their main texts
 * share (an index of 1.7 MB whose extraction kept one letter's table, against that letter's page of
 * 0.3 MB, 5.5 times less text). Copies of one site in the labelled sets differ by at most 1.06.
 */
export const SAME_SITE_SIZE_RATIO = 3;

/**
 * Whether the two pages may be copies of one another by size: always across sites (templates
 * differ, reprints in the sets carry up to 19 times less text than the original's page), within a
 * factor `SAME_SITE_SIZE_RATIO` on one site. Also guards exact duplicates (decide-exact.ts).
 */
export function sizesAllowCopy(
  a: { site: number; pageChars: number | null },
  b: { site: number; pageChars: number | null },
): boolean {
  if (a.site !== b.site || a.pageChars === null || b.pageChars === null) return true;
  const [small, large] = a.pageChars < b.pageChars ? [a.pageChars, b.pageChars] : [b.pageChars, a.pageChars];
  return large <= SAME_SITE_SIZE_RATIO * Math.max(small, 1);
}

/**
 * The near-duplicate rule, one for the stage and for `crawler check similar`: is `page` a near
 * duplicate of `original`? First the checks fingerprints allow (`screenNearDuplicate`), then the
 * verification with page sizes and sketches (`verifyNearDuplicate`).
 */
export function judgeNearDuplicate(page: NearSubject, original: NearSubject, limits: NearLimits): NearJudgement {
  return screenNearDuplicate(page, original, limits) ?? verifyNearDuplicate(page, original, limits);
}

/**
 * The checks an index entry is enough for, cheapest first; null when the pair passes them and needs
 * verifying. The stage screens every candidate so, and reads registrations only for those it passes.
 *
 * - Both texts need `minTokens` content words.
 * - Their lengths must allow the resemblance asked for: two sets of n and m shingles share at most
 *   min/max of their union.
 * - On one site the same page under another URL has the same title; other titles need headlines
 *   within k bits, and not only by the part the titles share: equal headlines under different
 *   titles are the site's name ("Index — Python 3.11.2 documentation" and "Search — Python 3.11.2
 *   documentation", before the site's template knows it).
 * - Found as the index finds pages: the bodies within k bits (the band index) with the word pairs
 *   within their limit; or the same specific headline (the headline's set) with the bodies within
 *   `sameHeadline` bits and the word pairs within the stricter limit; or an anchor in common.
 */
export function screenNearDuplicate(
  page: NearSubject,
  original: NearSubject,
  limits: NearLimits,
): NearJudgement | null {
  const bodyDistance = hammingDistance(page.body, original.body);
  const pairsDistance = hammingDistance(page.pairs, original.pairs);
  const titleDistance =
    page.title !== null && original.title !== null ? hammingDistance(page.title, original.title) : null;
  const different = (reason: string, decision: NearDecision = 'different'): NearJudgement => ({
    decision,
    reason,
    bodyDistance,
    pairsDistance,
    titleDistance,
    resemblance: null,
  });
  const fewer = Math.min(page.tokens, original.tokens);
  const more = Math.max(page.tokens, original.tokens);
  if (fewer < limits.minTokens)
    return different(`under ${limits.minTokens} content words: compared exactly only`, 'too_short');
  if (fewer < limits.resemblance * more)
    return different(
      `${page.tokens} and ${original.tokens} content words: too far apart in length to share ${share(limits.resemblance)}`,
    );
  if (page.site === original.site && titleDistance !== null && page.titleKey !== original.titleKey) {
    if (titleDistance > limits.body)
      return different(`same site, headlines ${titleDistance} bits apart (at most ${limits.body} within one site)`);
    if (titleDistance === 0)
      return different(
        "same site, other titles with one headline: the titles differ only where the headline leaves out (the site's name, numbers)",
      );
  }
  if (bodyDistance <= limits.body && pairsDistance <= limits.pairs) return null;
  const sameHeadline = titleDistance === 0 && page.specific && original.specific;
  if (sameHeadline && bodyDistance <= limits.sameHeadline && pairsDistance <= limits.sameHeadlinePairs) return null;
  if (page.anchors.some((anchor) => original.anchors.includes(anchor))) return null;
  return different(
    bodyDistance <= limits.body
      ? `same words, other word order: word pairs ${pairsDistance} bits apart (at most ${limits.pairs}), no anchor in common`
      : `main texts ${bodyDistance} bits apart (at most ${limits.body}, ${limits.sameHeadline} with the same headline), no anchor in common`,
  );
}

/** Page sizes on one site (`sizesAllowCopy`), then the sketches' resemblance. */
export function verifyNearDuplicate(page: NearSubject, original: NearSubject, limits: NearLimits): NearJudgement {
  const judgement = (decision: NearDecision, reason: string, estimate: number | null = null): NearJudgement => ({
    decision,
    reason,
    bodyDistance: hammingDistance(page.body, original.body),
    pairsDistance: hammingDistance(page.pairs, original.pairs),
    titleDistance: page.title !== null && original.title !== null ? hammingDistance(page.title, original.title) : null,
    resemblance: estimate,
  });
  if (!sizesAllowCopy(page, original))
    return judgement(
      'different',
      `same site, ${page.pageChars} and ${original.pageChars} characters of visible text: more than ${SAME_SITE_SIZE_RATIO} times apart`,
    );
  if (page.sketch === null || original.sketch === null)
    return judgement('different', 'no sketch to verify the match with (registered before sketches were kept)');
  const estimate = resemblance(page.sketch, original.sketch);
  if (estimate < limits.resemblance)
    return judgement(
      'different',
      `texts share ${share(estimate)} of their runs of four words (at least ${share(limits.resemblance)})`,
      estimate,
    );
  return judgement('near_duplicate', `texts share ${share(estimate)} of their runs of four words`, estimate);
}

const share = (value: number) => `${Math.round(value * 100)}%`;
