import { canonicalUrl, type LinkRecord } from '@crawler/core';
import type { GroundTruth, RequestLog } from '@crawler/testweb';
import { checkOutcomes, type OutcomeCheck } from './truth-outcomes.js';

export interface TruthReport {
  pagesExpected: number;
  pagesFetched: number;
  missing: string[];
  fetchedMoreThanOnce: string[];
  disallowedExpected: number;
  disallowedRequested: string[];
  exactDuplicateGroups: number;
  exactDuplicateGroupsDetected: number;
  redirectLoops: number;
  redirectLoopsDetected: number;
  trapPagesFetched: number;
  trapBudget: number;
  otherUrlsFetched: string[];
  /** Errors, redirects, timeouts and retried pages ending with the record the truth predicts. */
  outcomes: OutcomeCheck;
  pass: boolean;
}

const FETCHED = new Set(['fetched', 'duplicate']);

/**
 * Scores a crawl of the test web against its ground truth: every reachable allowed page fetched
 * (and how often it was requested), no request to a disallowed URL, exact duplicates and redirect
 * loops detected, trap pages within budget, and the URLs of known behaviour (errors, redirects,
 * endless and flaky pages) ending with the record it predicts. The truth lists URLs as the web spells them; they are
 * compared in the crawler's canonical form, so tracking-parameter variants (?utm_source=…) count
 * as the one URL the crawler fetches (URL-level deduplication).
 */
export function checkAgainstTruth(
  truth: GroundTruth,
  requests: RequestLog,
  records: Map<string, LinkRecord>,
): TruthReport {
  const canonical = (url: string) => canonicalUrl(url) ?? url;
  const flakyFailures = new Map(truth.flaky.map((entry) => [canonical(entry.url), entry.failures]));
  const pages = [...new Set(truth.pages.map(canonical))];
  const missing: string[] = [];
  const moreThanOnce: string[] = [];
  for (const url of pages) {
    const record = records.get(url);
    if (!record || !FETCHED.has(record.status)) missing.push(url);
    if (requests.count(url, 'GET') > 1 + (flakyFailures.get(url) ?? 0)) moreThanOnce.push(url);
  }
  const disallowedRequested = truth.disallowed.filter((url) => requests.count(url) > 0);
  const detected = truth.exactDuplicates.filter(
    (group) => group.filter((url) => records.get(canonical(url))?.status === 'duplicate').length === group.length - 1,
  );
  const loopsDetected = truth.redirectLoops.filter(
    (url) => records.get(canonical(url))?.lastOutcome === 'redirect_loop',
  );
  const expected = new Set(pages);
  // Sitemaps and feeds are fetched for their links when the job wants them; they are not pages.
  const linkSources = new Set([...truth.sitemapFiles, ...truth.nonHtml.map((file) => file.url)].map(canonical));
  const isTrap = (url: string) =>
    truth.traps.some((trap) => url.startsWith(trap.prefix) || new URL(url).pathname.startsWith(trap.prefix));
  let trapPages = 0;
  const others: string[] = [];
  for (const record of records.values()) {
    if (!FETCHED.has(record.status) || expected.has(record.url) || linkSources.has(record.url)) continue;
    if (isTrap(record.url)) trapPages++;
    else others.push(record.url);
  }
  const outcomes = checkOutcomes(truth, records);
  return {
    pagesExpected: pages.length,
    pagesFetched: pages.length - missing.length,
    missing,
    fetchedMoreThanOnce: moreThanOnce,
    disallowedExpected: truth.disallowed.length,
    disallowedRequested,
    exactDuplicateGroups: truth.exactDuplicates.length,
    exactDuplicateGroupsDetected: detected.length,
    redirectLoops: truth.redirectLoops.length,
    redirectLoopsDetected: loopsDetected.length,
    trapPagesFetched: trapPages,
    trapBudget: truth.trapBudget,
    otherUrlsFetched: others,
    outcomes,
    pass:
      missing.length === 0 &&
      moreThanOnce.length === 0 &&
      disallowedRequested.length === 0 &&
      detected.length === truth.exactDuplicates.length &&
      loopsDetected.length === truth.redirectLoops.length &&
      trapPages <= truth.trapBudget &&
      others.length === 0 &&
      outcomes.wrong.length === 0,
  };
}

export function formatTruthReport(report: TruthReport): string {
  const sample = (urls: string[]) =>
    urls.length > 0 ? ` (${urls.slice(0, 3).join(', ')}${urls.length > 3 ? ', …' : ''})` : '';
  return [
    'Ground truth check',
    `  reachable pages     ${report.pagesFetched}/${report.pagesExpected} fetched${sample(report.missing)}; ${report.pagesExpected - report.fetchedMoreThanOnce.length} requested exactly once${sample(report.fetchedMoreThanOnce)}`,
    `  robots.txt          ${report.disallowedExpected} disallowed URLs linked, ${report.disallowedRequested.length} requested${sample(report.disallowedRequested)}`,
    `  exact duplicates    ${report.exactDuplicateGroupsDetected}/${report.exactDuplicateGroups} groups detected`,
    `  redirect loops      ${report.redirectLoopsDetected}/${report.redirectLoops} detected`,
    `  spider trap         ${report.trapPagesFetched} trap pages fetched (budget ${report.trapBudget})`,
    `  outside the truth   ${report.otherUrlsFetched.length} other URLs fetched${sample(report.otherUrlsFetched)}`,
    `  final statuses      ${report.outcomes.checked - report.outcomes.wrong.length}/${report.outcomes.checked} errors, redirects, timeouts and retried pages as expected${sample(report.outcomes.wrong)}`,
    `  result              ${report.pass ? 'PASS' : 'FAIL'}`,
  ].join('\n');
}
