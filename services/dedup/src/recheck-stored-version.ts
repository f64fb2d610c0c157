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
  /** The digest the link base records instead of this fetch's: the stored version's, when this fetch repeats it. */
  recordedDigest: string | null;
}

/** A fetch of this URL happened before, and the link base never recorded it. */
export function unrecordedFetch(page: ParsedPage, exact: ExactDecision): boolean {
  return page.previousDigest === null && exact.fetchedBefore;
}

/**
 * The stored version's say in the decision. A fetch of this URL the link base never recorded (a
 * lease lost in an outage, a crash or a rebalance in between) is repeated by this one: "unchanged"
 * once that fetch's page is stored, whatever per-request noise a template does not strip changed,
 * and "new" if that fetch died before storing its page. Otherwise the template recheck: a "changed"
 * page whose previous digest was made with another template (learned or relearned since) may have
 * changed only by the template: its last stored version, digested with today's template, says.
 * Bytes identical to an earlier fetch of the URL settle it without the read.
 */
export function createStoredVersionRecheck(options: {
  pages: PageStore;
  algorithm: DigestAlgorithm;
  metrics: DedupMetrics;
}) {
  const { pages, algorithm, metrics } = options;

  /** The newest version of the page from another fetch in the page store (a redelivered earlier fetch may be decided after a later one). */
  async function storedVersion(page: ParsedPage): Promise<StoredPage | undefined> {
    return (await pages.get(page.url, { versions: 2 })).find((version) => version.fetchedAt !== page.fetchedAt);
  }

  /** The last stored version of another fetch, digested with today's template: same content? */
  async function compareStored(
    page: ParsedPage,
    template: SiteTemplate | null,
    digest: string,
  ): Promise<'unchanged' | 'changed' | 'missing'> {
    const stored = await storedVersion(page);
    if (!stored) return 'missing';
    return analyzePage(stored, template, algorithm).digest === digest ? 'unchanged' : 'changed';
  }

  /** This fetch repeats one the link base never recorded: decided by whether that fetch's page is stored. */
  async function repeatOfUnrecorded(page: ParsedPage, exact: ExactDecision): Promise<Rechecked> {
    const repeated = exact.change === 'new';
    const stored = await storedVersion(page);
    if (repeated) metrics.recheck(stored ? 'unchanged' : 'missing');
    if (!stored) return { decided: { ...exact, change: 'new' }, inheritedVerdict: null, recordedDigest: null };
    return {
      decided: { ...exact, change: 'unchanged' },
      inheritedVerdict: null,
      recordedDigest: repeated ? stored.digest : null,
    };
  }

  return async function recheck(
    page: ParsedPage,
    analysis: PageAnalysis,
    template: SiteTemplate | null,
    templateVersion: string,
    exact: ExactDecision,
    previous: Registration | null,
  ): Promise<Rechecked> {
    if (unrecordedFetch(page, exact) && (exact.change === 'new' || exact.change === 'unchanged'))
      return repeatOfUnrecorded(page, exact);
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
  };
}
