import { createLinkRecord, type LinkRecord } from '@crawler/core';

const DAY_MS = 86_400_000;

/**
 * The i-th URL the link base already knows: fetched an hour ago, not due for a month, on one of
 * a thousand hosts that are not part of the test web, so it costs the crawl only by being there.
 */
export function knownUrlRecord(i: number, now: number): LinkRecord {
  return createLinkRecord(`http://known-${i % 1000}.bench.test/page/${i}`, {
    jobId: 'bench',
    source: 'page',
    depth: 2,
    status: 'fetched',
    fetchCount: 1,
    discoveredAt: now - 2 * 3_600_000,
    lastFetchAt: now - 3_600_000,
    lastOutcome: 'ok',
    httpStatus: 200,
    digest: i.toString(16).padStart(32, '0'),
    nextFetchAt: now + 30 * DAY_MS,
  });
}
