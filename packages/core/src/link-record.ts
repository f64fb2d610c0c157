import { hash } from 'node:crypto';
import { linkPartition } from './link-partition.js';
import type { LinkRecord } from './ports/linkbase.js';
import { hostQueueKey } from './url/queue-key.js';
import { registrableDomain } from './url/registrable-domain.js';
import { surtKey } from './url/surt.js';
import { urlId } from './url/url-id.js';

/** The job a crawl without a job file runs, and the one messages of an unknown job fall back to. */
export const DEFAULT_JOB_ID = 'default';

/**
 * The link base id of a URL in a job: each job keeps its own record of a URL (its own status,
 * schedule and history), so a second job over the same site fetches every page for itself. The
 * default job's id is the URL's own (urlId), as before jobs had records of their own, so an existing
 * link base keeps its records. Every writer and reader of link records derives the id here.
 */
export function linkRecordId(jobId: string, canonical: string): string {
  // URL-encoded, the job id holds no space, and a canonical URL starts after the first one.
  return jobId === DEFAULT_JOB_ID ? urlId(canonical) : hash('sha1', `${encodeURIComponent(jobId)} ${canonical}`, 'hex');
}

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
    id: linkRecordId(fields.jobId ?? DEFAULT_JOB_ID, canonical),
    url: canonical,
    surt: surtKey(parsed),
    host: parsed.host,
    domain: registrableDomain(parsed),
    queueKey,
    partition: linkPartition(queueKey),
    jobId: DEFAULT_JOB_ID,
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
