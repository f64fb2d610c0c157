import type { ChangeDecision } from '@crawler/core';

/** Which fetch first registered a digest: the fingerprint store's value for it. */
export interface DigestRegistration {
  url: string;
  fetchedAt: number;
}

export function encodeRegistration(registration: DigestRegistration): string {
  return `${registration.fetchedAt} ${registration.url}`;
}

/** Canonical URLs contain no space, so the first space separates the fetch time from the URL. */
export function decodeRegistration(value: string): DigestRegistration {
  const space = value.indexOf(' ');
  return space > 0 ? { fetchedAt: Number(value.slice(0, space)), url: value.slice(space + 1) } : { fetchedAt: 0, url: value };
}

export interface ChangeInput {
  url: string;
  fetchedAt: number;
  digest: string;
  /** Digest of the version stored last time (from the link base, through the frontier request). */
  previousDigest: string | null;
  /** The fetch that registered this digest before, or null when this page registered it now. */
  registeredBy: DigestRegistration | null;
}

export interface ChangeVerdict {
  change: ChangeDecision;
  duplicateOf: string | null;
}

/**
 * Same digest as the URL's last stored version: unchanged. Digest registered first by another
 * URL: a duplicate of it. Registered by an earlier fetch of this same URL that the link base has
 * not recorded yet (a URL fetched twice around a rebalance): unchanged, so it is stored once.
 * Registered by this very fetch (a redelivered message): the same decision again. Otherwise new,
 * or changed when the URL had a version before.
 */
export function decideChange(input: ChangeInput): ChangeVerdict {
  if (input.previousDigest !== null && input.previousDigest === input.digest) return { change: 'unchanged', duplicateOf: null };
  const first = input.registeredBy;
  if (first && first.url !== input.url) return { change: 'duplicate', duplicateOf: first.url };
  if (first && input.previousDigest === null && first.fetchedAt !== input.fetchedAt) return { change: 'unchanged', duplicateOf: null };
  return { change: input.previousDigest === null ? 'new' : 'changed', duplicateOf: null };
}
