import type { ParsedPage } from '@crawler/core';
import type { PageAnalysis } from './analyze-page.js';
import type { Decided } from './decide-exact.js';
import type { Judgement } from './judge/judge.js';
import type { ResolvedVerdict, VerdictCache } from './judge/verdict-cache.js';

/**
 * The verdict: the one stored with this content's registration (its first copy's), else the one
 * the decision inherited (a near duplicate's original, a stored version rechecked as the same),
 * else the judge's (judge/verdict-cache.ts). Media are not judged.
 */
export function decideVerdict(
  verdicts: VerdictCache,
  page: ParsedPage,
  analysis: PageAnalysis,
  decided: Decided,
  inheritedVerdict: string | null,
): Promise<ResolvedVerdict> {
  if (analysis.media) return Promise.resolve({ label: null, judged: false, judgement: null });
  return verdicts.resolve(decided.owner.verdict ?? inheritedVerdict, {
    url: page.url,
    title: page.title,
    text: analysis.text,
    lang: page.lang,
  });
}

/**
 * What goes to crawl.review: a harmful verdict, when judged, and for every copy and near copy found
 * later (reason: the content it shares); never for an unchanged re-crawl.
 */
export function reviewOf(
  verdicts: VerdictCache,
  decided: Decided,
  verdict: ResolvedVerdict,
): { judgement: Judgement; judge: string } | null {
  if (decided.change === 'unchanged' || !verdict.judgement || !verdicts.isHarmful(verdict.label)) return null;
  if (verdict.judged) return { judgement: verdict.judgement, judge: verdicts.judgeName };
  const reasons = [`same content as ${decided.duplicateOf ?? decided.owner.url}`];
  return { judgement: { ...verdict.judgement, reasons }, judge: 'cache' };
}
