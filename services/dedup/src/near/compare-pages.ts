import type { PageAnalysis } from '../analyze-page.js';
import { hammingDistance } from '../fingerprint/simhash.js';
import { specificHeadline, type NearThresholds } from './nearest-match.js';

export type Similarity = 'exact_duplicate' | 'near_duplicate' | 'different' | 'too_short';

export interface PageComparison {
  decision: Similarity;
  /** Why, in words: which check decided. */
  reason: string;
  bodyDistance: number | null;
  titleDistance: number | null;
  pairsDistance: number | null;
}

/**
 * What dedup would decide about two pages, each check as the stage makes it (see nearest-match.ts):
 * same digest; enough words; headline, body within k (wider for the same specific headline), word
 * pairs; a match on one site needs its headline within k. For `crawler check similar`.
 */
export function comparePages(
  a: { host: string; analysis: PageAnalysis },
  b: { host: string; analysis: PageAnalysis },
  limits: NearThresholds,
  minTokens: number,
): PageComparison {
  const [x, y] = [a.analysis.fingerprint, b.analysis.fingerprint];
  const bodyDistance = x && y ? hammingDistance(x.body, y.body) : null;
  const pairsDistance = x && y ? hammingDistance(x.pairs, y.pairs) : null;
  const titleDistance = x?.title != null && y?.title != null ? hammingDistance(x.title, y.title) : null;
  const result = (decision: Similarity, reason: string): PageComparison => ({
    decision,
    reason,
    bodyDistance,
    titleDistance,
    pairsDistance,
  });
  if (a.analysis.digest === b.analysis.digest)
    return result('exact_duplicate', 'same digest of title and de-noised main text');
  if (!x || !y) return result('different', 'media are compared by their bytes, and these differ');
  if (Math.min(x.tokens, y.tokens) < minTokens)
    return result('too_short', `under ${minTokens} content words: compared exactly only`);
  if (titleDistance !== null && titleDistance > limits.title)
    return result('different', `headlines ${titleDistance} bits apart (at most ${limits.title})`);
  // Past k bits only the same specific headline helps, and then the word pairs must agree more.
  const widened = bodyDistance! > limits.body && titleDistance === 0 && specificHeadline(x) && specificHeadline(y);
  const reach = widened ? `at most ${limits.sameHeadline} with the same headline` : `at most ${limits.body}`;
  const pairLimit = widened ? limits.sameHeadlinePairs : limits.pairs;
  if (bodyDistance! > (widened ? limits.sameHeadline : limits.body))
    return result('different', `main texts ${bodyDistance} bits apart (${reach})`);
  if (pairsDistance! > pairLimit)
    return result(
      'different',
      `same words, other word order: word pairs ${pairsDistance} bits apart (at most ${pairLimit})`,
    );
  if (a.host === b.host && titleDistance !== null && titleDistance > limits.body)
    return result(
      'different',
      `same site, headlines ${titleDistance} bits apart (at most ${limits.body} within one site)`,
    );
  return result('near_duplicate', `main texts ${bodyDistance} bits apart (${reach})`);
}
