import type { LinkRecord } from './ports/linkbase.js';

/**
 * When the scheduler fetches a URL next: at once, after a wait (a retry's back-off, a fetcher's
 * Retry-After, a re-crawl interval), or never again (gone, blocked, lost too often). Every writer
 * of a link record's `nextFetchAt` decides with one of these and stores it through withNextFetch.
 */
export type NextFetch =
  { readonly due: 'now' } | { readonly due: 'after'; readonly ms: number } | { readonly due: 'never' };

export const fetchNow: NextFetch = { due: 'now' };
export const fetchNever: NextFetch = { due: 'never' };
export function fetchAfter(ms: number): NextFetch {
  return { due: 'after', ms };
}

/**
 * The stored `nextFetchAt` of a URL never due again. The link base sorts and ranges on a number,
 * so "never" is the latest time there is rather than a null every query would have to skip.
 */
export const NEVER_DUE = Number.MAX_SAFE_INTEGER;

/** The record with its next fetch set; `now` is the scheduler's clock, the one every wait is measured on. */
export function withNextFetch<R extends LinkRecord>(record: R, next: NextFetch, now: number): R {
  return { ...record, nextFetchAt: dueAt(next, now) };
}

function dueAt(next: NextFetch, now: number): number {
  switch (next.due) {
    case 'now':
      return now;
    case 'after':
      return now + next.ms;
    case 'never':
      return NEVER_DUE;
  }
}
