import type { ChangeDecision } from '@crawler/core';

export interface ChangeInput {
  url: string;
  digest: string;
  /** Digest of the version stored last time (from the link base, through the frontier request). */
  previousDigest: string | null;
  /** URL already registered for this digest, or null when this page registered it now. */
  firstUrlWithDigest: string | null;
}

export interface ChangeVerdict {
  change: ChangeDecision;
  duplicateOf: string | null;
}

/**
 * The same URL with the same digest is unchanged; another URL that registered the digest first
 * makes this page its duplicate; otherwise the page is new, or changed if it had a version before.
 */
export function decideChange(input: ChangeInput): ChangeVerdict {
  if (input.previousDigest !== null && input.previousDigest === input.digest) return { change: 'unchanged', duplicateOf: null };
  if (input.firstUrlWithDigest !== null && input.firstUrlWithDigest !== input.url) return { change: 'duplicate', duplicateOf: input.firstUrlWithDigest };
  return { change: input.previousDigest === null ? 'new' : 'changed', duplicateOf: null };
}
