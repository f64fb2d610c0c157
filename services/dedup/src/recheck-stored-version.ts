import type { PageStore, ParsedPage } from '@crawler/core';
import { analyzePage, type PageAnalysis } from './analyze-page.js';
import type { DigestAlgorithm } from './content-digest.js';
import { needsTemplateRecheck } from './decide-change.js';
import type { DedupMetrics } from './dedup-metrics.js';
import type { Decided, ExactDecision } from './decide-exact.js';
import type { Registration } from './registration.js';
import type { SiteTemplate } from './template/site-template.js';

export interface Rechecked {
  decided: Decided;
  /** The verdict of the stored version, when this fetch is that version again. */
  inheritedVerdict: string | null;
}

/**
 * The template recheck. A "changed" page whose previous digest was made with another template (the
 * template was learned or relearned since) may have changed only by the template: its last stored
 * version, digested with today's template, says. So does a "new" page of a URL fetched before the link
 * base recorded that fetch (a redelivered frontier request): "changed" if its stored version differs
 * under the site's learned template; with none learned yet, "unchanged" once that page is stored.
 * Bytes identical to an earlier fetch of the URL settle it without the read. "Unchanged" against a
 * fetch the link base never recorded needs that fetch's page in the store.
 */
/** A fetch of this URL happened before, and the link base never recorded it. */
export function unrecordedFetch(page: ParsedPage, exact: ExactDecision): boolean {
  return page.previousDigest === null && exact.fetchedBefore;
}

export function createStoredVersionRecheck(options: {
  pages: PageStore;
  algorithm: DigestAlgorithm;
  metrics: DedupMetrics;
}) {
  const { pages, algorithm, metrics } = options;

  /** The last stored version of another fetch, digested with today's template: same content? */
  async function compareStored(
    page: ParsedPage,
    template: SiteTemplate | null,
    digest: string,
  ): Promise<'unchanged' | 'changed' | 'missing'> {
    // Any other version: a redelivered earlier fetch may be decided after the later one.
    const stored = (await pages.get(page.url, { versions: 2 })).find((version) => version.fetchedAt !== page.fetchedAt);
    if (!stored) return 'missing';
    return analyzePage(stored, template, algorithm).digest === digest ? 'unchanged' : 'changed';
  }

  /** Whether a version of the page from another fetch is in the page store. */
  async function storedBefore(page: ParsedPage): Promise<boolean> {
    return (await pages.get(page.url, { versions: 2 })).some((version) => version.fetchedAt !== page.fetchedAt);
  }

  async function recheckTemplate(
    page: ParsedPage,
    analysis: PageAnalysis,
    template: SiteTemplate | null,
    templateVersion: string,
    exact: ExactDecision,
    previous: Registration | null,
  ): Promise<Rechecked> {
    const refetched = exact.change === 'new' && exact.fetchedBefore;
    // Without a learned template the site's per-request noise cannot be told from an edit: the repeat
    // of a fetch whose page is stored is that fetch again, not a second version.
    if (refetched && template === null) {
      const stored = await storedBefore(page);
      metrics.recheck(stored ? 'unchanged' : 'missing');
      return { decided: stored ? { ...exact, change: 'unchanged' } : exact, inheritedVerdict: null };
    }
    if (!refetched && !needsTemplateRecheck(exact.change, previous, templateVersion))
      return { decided: exact, inheritedVerdict: null };
    const result = exact.rawSeenBefore ? 'unchanged' : await compareStored(page, template, analysis.digest);
    metrics.recheck(result);
    if (result === 'unchanged')
      return { decided: { ...exact, change: 'unchanged' }, inheritedVerdict: previous?.verdict ?? null };
    if (result === 'changed' && refetched) return { decided: { ...exact, change: 'changed' }, inheritedVerdict: null };
    return { decided: exact, inheritedVerdict: null };
  }

  return async function recheck(
    page: ParsedPage,
    analysis: PageAnalysis,
    template: SiteTemplate | null,
    templateVersion: string,
    exact: ExactDecision,
    previous: Registration | null,
  ): Promise<Rechecked> {
    const rechecked = await recheckTemplate(page, analysis, template, templateVersion, exact, previous);
    // A fetch of this URL the link base never recorded (a crash or a rebalance in between) may have
    // died after registering its digests and before storing its page: "unchanged" against it holds
    // only if that page is stored.
    if (unrecordedFetch(page, exact) && rechecked.decided.change === 'unchanged' && !(await storedBefore(page)))
      return { decided: { ...exact, change: 'new' }, inheritedVerdict: null };
    return rechecked;
  };
}
