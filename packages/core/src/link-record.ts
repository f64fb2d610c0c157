import { linkPartition } from './link-partition.js';
import type { LinkRecord } from './ports/linkbase.js';
import { hostQueueKey } from './url/queue-key.js';
import { registrableDomain } from './url/registrable-domain.js';
import { surtKey } from './url/surt.js';
import { urlId } from './url/url-id.js';

/**
 * A fresh, queued link base record for a canonical URL. Value, priority, level and rank are the
 * scheduler's to set (services/scheduler: link-priority.ts); the defaults here rank it first.
 */
export function createLinkRecord(
  canonical: string,
  fields: Partial<LinkRecord> = {},
  parsed: URL = new URL(canonical),
): LinkRecord {
  const queueKey = fields.queueKey ?? hostQueueKey(parsed);
  return {
    id: urlId(canonical),
    url: canonical,
    surt: surtKey(parsed),
    host: parsed.host,
    domain: registrableDomain(parsed),
    queueKey,
    partition: linkPartition(queueKey),
    jobId: 'default',
    depth: 0,
    source: 'seed',
    discoveredAt: 0,
    anchors: [],
    inlinks: 0,
    status: 'queued',
    fetchCount: 0,
    lastFetchAt: null,
    lastSeenAt: null,
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
    value: 0,
    priority: 0,
    level: 0,
    rank: 0,
    trafficClass: 'discovery',
    changeRate: null,
    changeHistory: [],
    linkYield: 0,
    sitemapChangefreq: null,
    sitemapLastmod: null,
    nextFetchAt: 0,
    leaseUntil: 0,
    leaseExpiries: 0,
    ...fields,
  };
}
