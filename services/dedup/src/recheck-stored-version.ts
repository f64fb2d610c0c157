import type { PageStore, ParsedPage, StoredPage } from '@crawler/core';
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
  /**
   * The digest the link base records: the stored version's when this fetch repeats it, so an edit
   * made between the two fetches is stored by the next one.
   */
  recordedDigest: string | null;
}

/**
 * The template recheck. A "changed" page whose previous digest was made with another template (the
 * template was learned or relearned since) may have changed only by the template: its last stored
 * version, digested with today's template, says. A "new" page of a URL fetched before the link base
 * recorded that fetch (a redelivered frontier request) is "unchanged" once that fetch's page is stored.
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

  /** The newest version of the page from another fetch in the page store. */
  async function storedVersion(page: ParsedPage): Promise<StoredPage | undefined> {
    return (await pages.get(page.url, { versions: 2 })).find((version) => version.fetchedAt !== page.fetchedAt);
  }

  async function recheckTemplate(
    page: ParsedPage,
    analysis: PageAnalysis,
    template: SiteTemplate | null,
    templateVersion: string,
    exact: ExactDecision,
    previous: Registration | null,
  ): Promise<Rechecked> {
    // A repeat of a fetch the link base never recorded (a lease lost in an outage, seconds later) is that
    // scheduled fetch again: once its page is stored, not a second version - per-request noise a
    // template does not strip cannot be told from an edit.
    if (exact.change === 'new' && exact.fetchedBefore) {
      const stored = await storedVersion(page);
      metrics.recheck(stored ? 'unchanged' : 'missing');
      return stored
        ? { decided: { ...exact, change: 'unchanged' }, inheritedVerdict: null, recordedDigest: stored.digest }
        : { decided: exact, inheritedVerdict: null, recordedDigest: null };
    }
    if (!needsTemplateRecheck(exact.change, previous, templateVersion))
      return { decided: exact, inheritedVerdict: null, recordedDigest: null };
    const result = exact.rawSeenBefore ? 'unchanged' : await compareStored(page, template, analysis.digest);
    metrics.recheck(result);
    if (result === 'unchanged')
      return {
        decided: { ...exact, change: 'unchanged' },
        inheritedVerdict: previous?.verdict ?? null,
        recordedDigest: null,
      };
    return { decided: exact, inheritedVerdict: null, recordedDigest: null };
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
    if (unrecordedFetch(page, exact) && rechecked.decided.change === 'unchanged' && !(await storedVersion(page)))
      return { decided: { ...exact, change: 'new' }, inheritedVerdict: null, recordedDigest: null };
    return rechecked;
  };
}
