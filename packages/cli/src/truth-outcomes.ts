import { canonicalUrl, type LinkRecord } from '@crawler/core';
import type { GroundTruth } from '@crawler/testweb';

export interface OutcomeCheck {
  /** URLs whose final record the truth predicts: errors, non-HTML files, endless and flaky pages, redirects. */
  checked: number;
  /** `url: expected …, got …` for each record that differs. */
  wrong: string[];
}

/**
 * The record each URL of known behaviour must end with: an error page its HTTP status and `gone`
 * or `error`, a non-HTML file `unsupported_type`, an endless body `timeout`, a flaky page
 * `fetched` after its failures, a redirect its target (loops are scored apart).
 */
export function checkOutcomes(truth: GroundTruth, records: Map<string, LinkRecord>): OutcomeCheck {
  const wrong: string[] = [];
  const record = (url: string) => records.get(canonicalUrl(url) ?? url);
  const expect = (url: string, what: string, ok: (found: LinkRecord) => boolean) => {
    const found = record(url);
    if (!found || !ok(found))
      wrong.push(
        `${url}: expected ${what}, got ${found ? `${found.status} (${found.lastOutcome ?? 'no outcome'}, HTTP ${found.httpStatus ?? '-'})` : 'no record'}`,
      );
  };
  for (const { url, status } of truth.errors)
    expect(
      url,
      `HTTP ${status}, gone or error`,
      (found) => found.httpStatus === status && (found.status === 'gone' || found.status === 'error'),
    );
  for (const { url } of truth.nonHtml)
    expect(url, 'unsupported_type', (found) => found.lastOutcome === 'unsupported_type');
  for (const url of truth.endless) expect(url, 'timeout', (found) => found.lastOutcome === 'timeout');
  for (const { url } of truth.flaky) expect(url, 'fetched', (found) => found.status === 'fetched');
  const redirects = truth.redirects.filter(
    (redirect) => redirect.status !== 'meta-refresh' && !truth.redirectLoops.includes(redirect.from),
  );
  for (const { from, to } of redirects)
    expect(from, `redirect to ${to}`, (found) => found.status === 'redirect' && found.redirectTo === canonicalUrl(to));
  return {
    checked: truth.errors.length + truth.nonHtml.length + truth.endless.length + truth.flaky.length + redirects.length,
    wrong,
  };
}
