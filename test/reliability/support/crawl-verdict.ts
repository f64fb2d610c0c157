import { canonicalUrl, type LinkRecord } from '@crawler/core';
import type { GroundTruth, RequestLog } from '@crawler/testweb';
import { expect } from 'vitest';
import type { CrawlRun } from './crawl-run.js';

/** What a crawl lost or did twice, measured against the test web's ground truth; every list empty means nothing. */
export interface CrawlVerdict {
  /** Reachable allowed pages the link base does not hold as fetched (or as a duplicate). */
  missing: string[];
  /** Pages with more than one stored version: stored twice. */
  storedTwice: string[];
  /** Pages fetched and not duplicates, without a stored version. */
  notStored: string[];
  /** Exact duplicates that were stored. */
  duplicatesStored: string[];
  /** Link base records still waiting, retrying or leased. */
  unsettled: string[];
  /** URLs robots.txt forbids that received a request. */
  disallowedRequested: string[];
  /** Duplicate groups not recognised as such. */
  duplicateGroupsMissed: string[][];
  /** Messages not consumed by the group that should have. */
  lag: number;
  /** Records the services gave up on. */
  deadLetters: number;
}

const FETCHED = new Set(['fetched', 'duplicate']);
const SETTLED = new Set(['fetched', 'duplicate', 'redirect', 'gone', 'blocked', 'error']);

/** Reads the link base, the page store and the topics of a finished crawl and scores them against the truth. */
export async function judgeCrawl(run: CrawlRun, truth: GroundTruth, requests: RequestLog): Promise<CrawlVerdict> {
  const canonical = (url: string) => canonicalUrl(url) ?? url;
  const records = new Map<string, LinkRecord>();
  for await (const record of run.linkbase.scan()) records.set(record.url, record);
  const now = Date.now();
  const verdict: CrawlVerdict = {
    missing: [],
    storedTwice: [],
    notStored: [],
    duplicatesStored: [],
    unsettled: [...records.values()]
      .filter((record) => !SETTLED.has(record.status) || record.leaseUntil > now)
      .map((record) => `${record.url} (${record.status})`),
    disallowedRequested: truth.disallowed.filter((url) => requests.count(url) > 0),
    duplicateGroupsMissed: truth.exactDuplicates.filter(
      (group) => group.filter((url) => records.get(canonical(url))?.status === 'duplicate').length !== group.length - 1,
    ),
    lag: await run.lag(),
    deadLetters: await run.deadLetters(),
  };
  for (const url of new Set(truth.pages.map(canonical))) {
    const record = records.get(url);
    if (!record || !FETCHED.has(record.status)) {
      verdict.missing.push(`${url} (${record?.status ?? 'unknown'})`);
      continue;
    }
    const stored = await run.pages.get(url, { versions: 10 });
    const versions = stored.length;
    if (record.status === 'duplicate' && versions > 0) verdict.duplicatesStored.push(url);
    if (record.status === 'fetched' && versions === 0) verdict.notStored.push(url);
    // Each version's fetch time, decision and digest: what a failure needs to be understood.
    if (versions > 1)
      verdict.storedTwice.push(
        `${url} (${stored.map((page) => `${new Date(page.fetchedAt).toISOString()} ${page.change} ${page.digest.slice(0, 12)}`).join(', ')})`,
      );
  }
  return verdict;
}

/**
 * The verdict of a crawl that lost nothing and stored nothing twice. An exact duplicate may keep
 * the one version stored when it was first fetched: a fetch redelivered after the fault can come
 * after its site's template was learned, which changes the digest its copies share (storedTwice
 * still catches a second version).
 */
export function expectNothingLost(verdict: CrawlVerdict): void {
  const { duplicatesStored: _storedOnce, ...rest } = verdict;
  expect(rest).toEqual({
    missing: [],
    storedTwice: [],
    notStored: [],
    unsettled: [],
    disallowedRequested: [],
    duplicateGroupsMissed: [],
    lag: 0,
    deadLetters: 0,
  });
}
