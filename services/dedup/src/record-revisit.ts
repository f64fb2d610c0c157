import { rawBody, sha1Digest, surtKey, type ParsedPage, type Revisit, type ServedCapture } from '@crawler/core';
import type { Decided, ExactDecision } from './decide-exact.js';

/** The fields an archived capture that is no page version takes from the page as fetched. */
export function servedCaptureOf(page: ParsedPage): ServedCapture {
  return {
    url: page.url,
    surt: surtKey(page.url),
    jobId: page.jobId,
    fetchedAt: page.fetchedAt,
    httpStatus: page.httpStatus,
    headers: page.headers,
  };
}

/**
 * The trace an unstored capture leaves in the archive: an unchanged page or an exact duplicate
 * whose bytes an earlier fetch had is a WARC revisit of that fetch (identical-payload-digest), so
 * a replay of this crawl has the page at this date too. A capture dedup calls unchanged or a
 * duplicate by its text while its bytes are new (a clock in the template) has no identical
 * original to point at, and leaves none; nor does a noindex page, which is not archived at all.
 */
export function revisitOf(page: ParsedPage, decided: Decided, exact: ExactDecision): Revisit | null {
  if (decided.change !== 'unchanged' && decided.change !== 'duplicate') return null;
  if (page.noindex || exact.sameBytesAs === null) return null;
  return {
    ...servedCaptureOf(page),
    payloadDigest: sha1Digest(rawBody(page.body, page.bodyEncoding)),
    refersToUrl: exact.sameBytesAs.url,
    refersToDate: exact.sameBytesAs.fetchedAt,
  };
}
