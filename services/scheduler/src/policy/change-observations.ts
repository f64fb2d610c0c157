import { MAX_CHANGE_HISTORY, type ChangeObservation } from '@crawler/core';

export interface FetchObservation {
  /** When this fetch happened, and when the previous one did (null: the first fetch). */
  at: number;
  previousAt: number | null;
  /** Whether the content differs from the previous fetch (a 304 is unchanged); null on a first fetch. */
  changed: boolean | null;
  /** The page's Last-Modified (HTTP, or sitemap lastmod before the first fetch), epoch ms. */
  lastModifiedAt: number | null;
}

/**
 * The observations one fetch adds to a page's change history. A re-fetch is one observation: the
 * time since the previous fetch, changed or not. A trustworthy Last-Modified splits it: changed
 * somewhere before it, unchanged since; on a first fetch it says the page has not changed for that
 * long. A Last-Modified that contradicts the content (newer, yet nothing changed) is ignored: some
 * servers stamp every answer with the current time.
 */
export function fetchObservations(fetch: FetchObservation): ChangeObservation[] {
  const { at, previousAt, changed, lastModifiedAt } = fetch;
  const modified = lastModifiedAt !== null && lastModifiedAt <= at ? lastModifiedAt : null;
  if (previousAt === null || changed === null)
    return modified !== null && modified < at ? [{ ms: at - modified, changed: false }] : [];
  const interval = at - previousAt;
  if (interval <= 0) return [];
  if (changed && modified !== null && modified > previousAt) {
    const observations: ChangeObservation[] = [{ ms: modified - previousAt, changed: true }];
    if (at > modified) observations.push({ ms: at - modified, changed: false });
    return observations;
  }
  return [{ ms: interval, changed }];
}

/** The history with the new observations, oldest dropped beyond MAX_CHANGE_HISTORY. */
export function appendObservations(
  history: readonly ChangeObservation[],
  added: readonly ChangeObservation[],
): ChangeObservation[] {
  if (added.length === 0) return [...history];
  return [...history, ...added].slice(-MAX_CHANGE_HISTORY);
}
