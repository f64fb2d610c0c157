import type { PageAnalysis } from '../analyze-page.js';
import { resemblance } from '../fingerprint/shingle-sketch.js';
import { judgeNearDuplicate, sizesAllowCopy, type NearLimits } from './near-duplicate-rule.js';
import { siteTag, subjectOf } from './near-subject.js';

export type Similarity = 'exact_duplicate' | 'near_duplicate' | 'different' | 'too_short';

export interface PageComparison {
  decision: Similarity;
  /** Why, in words: which check decided. */
  reason: string;
  bodyDistance: number | null;
  titleDistance: number | null;
  pairsDistance: number | null;
  /** Estimated resemblance of the texts' runs of four content words (null for media and texts without one). */
  resemblance: number | null;
}

/**
 * What dedup decides about page B when page A was crawled first: the same digest and sizes a copy
 * may have (decide-exact.ts), else the near-duplicate rule (near-duplicate-rule.ts), the very
 * function the stage applies to the candidates its index finds. For `crawler check similar`.
 */
export function comparePages(
  a: { host: string; analysis: PageAnalysis },
  b: { host: string; analysis: PageAnalysis },
  limits: NearLimits,
): PageComparison {
  const [original, page] = [subjectOf(a.host, a.analysis), subjectOf(b.host, b.analysis)];
  const judged = page && original ? judgeNearDuplicate(page, original, limits) : null;
  const measured = {
    bodyDistance: judged?.bodyDistance ?? null,
    titleDistance: judged?.titleDistance ?? null,
    pairsDistance: judged?.pairsDistance ?? null,
    // Shown even when an earlier check decided: what the texts share is what a user asks about.
    resemblance:
      judged?.resemblance ?? (page?.sketch && original?.sketch ? resemblance(page.sketch, original.sketch) : null),
  };
  const sizes = sizesAllowCopy(
    { site: siteTag(a.host), pageChars: a.analysis.pageChars },
    { site: siteTag(b.host), pageChars: b.analysis.pageChars },
  );
  if (a.analysis.digest === b.analysis.digest && sizes)
    return { decision: 'exact_duplicate', reason: 'same digest of title and de-noised main text', ...measured };
  if (!judged)
    return { decision: 'different', reason: 'media are compared by their bytes, and these differ', ...measured };
  return { decision: judged.decision, reason: judged.reason, ...measured };
}
