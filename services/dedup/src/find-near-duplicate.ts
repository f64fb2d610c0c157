import { urlId, type FingerprintStore, type ParsedPage } from '@crawler/core';
import { DIGEST_NAMESPACE, type Decided } from './decide-exact.js';
import { hammingDistance } from './fingerprint/simhash.js';
import type { Lookup } from './near/near-duplicate-index.js';
import {
  judgeNearDuplicate,
  screenNearDuplicate,
  type NearJudgement,
  type NearLimits,
  type NearSubject,
} from './near/near-duplicate-rule.js';
import { indexedSubject } from './near/near-subject.js';
import { decodeRegistration, type Registration } from './registration.js';

/** Screened candidates whose registration is read before giving up: past these, it is noise. */
const MAX_CANDIDATES_RESOLVED = 3;

export interface NearDuplicateFound {
  registration: Registration;
  distance: number;
  judgement: NearJudgement;
}

/**
 * The near-duplicate level, for a new or changed page: the index's candidates (band buckets and
 * the headline's set) screened by the rule with what their entries hold, closest body first; then,
 * for the first few, their registrations read and the whole rule applied with their sizes and
 * sketches (near-duplicate-rule.ts, the rule `crawler check similar` applies too). The page's own
 * earlier versions and pages with its digest (decided already) are skipped.
 */
export function createNearDuplicateFinder(options: { fingerprints: FingerprintStore; limits: NearLimits }) {
  const { fingerprints } = options;
  return async function findNearDuplicate(
    page: ParsedPage,
    subject: NearSubject,
    digest: string,
    lookup: Lookup,
  ): Promise<NearDuplicateFound | null> {
    // A headline not looked up, or carried by many texts, does not widen the body distance.
    const limits = lookup.headlineOpen ? options.limits : { ...options.limits, sameHeadline: options.limits.body };
    const urlTag = urlId(page.url).slice(0, 8);
    const screened = lookup.pages
      .filter((entry) => entry.urlTag !== urlTag && entry.digest !== digest)
      .map((entry) => ({ entry, judgement: screenNearDuplicate(subject, indexedSubject(entry), limits) }))
      .filter(({ judgement }) => judgement === null)
      .map(({ entry }) => ({ entry, distance: hammingDistance(subject.body, entry.body) }))
      .sort((a, b) => a.distance - b.distance || (a.entry.digest < b.entry.digest ? -1 : 1))
      .slice(0, MAX_CANDIDATES_RESOLVED);
    if (screened.length === 0) return null;
    const values = await fingerprints.get(
      DIGEST_NAMESPACE,
      screened.map(({ entry }) => entry.digest),
    );
    for (const [i, { entry }] of screened.entries()) {
      const registration = values[i] ? decodeRegistration(values[i]!) : null;
      if (!registration || registration.url === page.url) continue;
      const judgement = judgeNearDuplicate(subject, indexedSubject(entry, registration), limits);
      if (judgement.decision === 'near_duplicate') return { registration, distance: judgement.bodyDistance, judgement };
    }
    return null;
  };
}

/** The decision for a page found to be a near duplicate: its registration remembers it, so re-crawls repeat it. */
export function asNearDuplicate(decided: Decided, found: NearDuplicateFound): Decided {
  return {
    ...decided,
    change: 'near_duplicate',
    duplicateOf: found.registration.url,
    distance: found.distance,
    owner: { ...decided.owner, nearOf: found.registration.url, distance: found.distance },
  };
}
