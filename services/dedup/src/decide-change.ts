import type { ChangeDecision } from '@crawler/core';
import type { Registration } from './registration.js';

export interface ChangeInput {
  url: string;
  fetchedAt: number;
  digest: string;
  /** Digest of the version stored last time (from the link base, through the frontier request). */
  previousDigest: string | null;
  /** The fetch that registered this digest before, or null when this fetch registered it now. */
  registeredBy: Registration | null;
}

export interface ChangeVerdict {
  change: ChangeDecision;
  duplicateOf: string | null;
  distance: number | null;
}

const verdict = (
  change: ChangeDecision,
  duplicateOf: string | null = null,
  distance: number | null = null,
): ChangeVerdict => ({ change, duplicateOf, distance });

/**
 * The decision the digest alone allows. Registered first by another URL: a duplicate of it (also
 * on a re-crawl: a copy stays a copy). Registered by this URL as a near duplicate: that again.
 * Same digest as the URL's last stored version: unchanged. Registered by an earlier fetch of this
 * URL that the link base has not recorded yet (a URL fetched twice around a rebalance): unchanged,
 * so it is stored once. Registered by this very fetch (a redelivered message): the same decision
 * again. Otherwise new, or changed when the URL had a version before; near-duplicate search and
 * the template check come after.
 */
export function decideChange(input: ChangeInput): ChangeVerdict {
  const first = input.registeredBy;
  if (first && first.url !== input.url) return verdict('duplicate', first.url);
  if (first?.nearOf) return verdict('near_duplicate', first.nearOf, first.distance);
  if (input.previousDigest !== null && input.previousDigest === input.digest) return verdict('unchanged');
  if (first && input.previousDigest === null && first.fetchedAt !== input.fetchedAt) return verdict('unchanged');
  return verdict(input.previousDigest === null ? 'new' : 'changed');
}

/**
 * A "changed" whose previous digest was computed with another template (or an unknown one) may be
 * the template's doing, not the page's: worth recomputing the stored version's digest.
 */
export function needsTemplateRecheck(change: ChangeDecision, previous: Registration | null, template: string): boolean {
  return change === 'changed' && (previous === null || previous.template !== template);
}
