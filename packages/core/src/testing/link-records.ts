import type { LinkRecord } from '../ports/linkbase.js';
import { surtKey } from '../url/surt.js';
import { urlId } from '../url/url-id.js';

/** A queued link record with sensible defaults, for tests and seeds. */
export function makeLinkRecord(url: string, overrides: Partial<LinkRecord> = {}): LinkRecord {
  const parsed = new URL(url);
  return {
    id: urlId(url),
    url,
    surt: surtKey(parsed),
    host: parsed.host,
    queueKey: parsed.host,
    jobId: 'default',
    depth: 0,
    source: 'seed',
    discoveredAt: 0,
    anchors: [],
    inlinks: 0,
    status: 'queued',
    fetchCount: 0,
    lastFetchAt: null,
    lastChangeAt: null,
    consecutiveFailures: 0,
    lastOutcome: null,
    httpStatus: null,
    etag: null,
    lastModified: null,
    digest: null,
    redirectTo: null,
    duplicateOf: null,
    errorCode: null,
    priority: 0,
    trafficClass: 'discovery',
    nextFetchAt: 0,
    leaseUntil: 0,
    leaseExpiries: 0,
    ...overrides,
  };
}
