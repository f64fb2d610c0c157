import type { LinkRecord } from './ports/linkbase.js';
import { hostQueueKey } from './url/queue-key.js';
import { surtKey } from './url/surt.js';
import { urlId } from './url/url-id.js';

/** A fresh, queued link base record for a canonical URL. */
export function createLinkRecord(canonical: string, fields: Partial<LinkRecord> = {}, parsed: URL = new URL(canonical)): LinkRecord {
  return {
    id: urlId(canonical),
    url: canonical,
    surt: surtKey(parsed),
    host: parsed.host,
    queueKey: hostQueueKey(parsed),
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
    redirectHops: 0,
    duplicateOf: null,
    errorCode: null,
    priority: 0,
    trafficClass: 'discovery',
    nextFetchAt: 0,
    leaseUntil: 0,
    leaseExpiries: 0,
    ...fields,
  };
}
