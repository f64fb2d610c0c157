import type { LinkSource, TrafficClass } from '../messages.js';

/** Where a URL stands in the crawl. */
export type LinkStatus =
  | 'queued' // known, waiting to be fetched (or re-fetched at nextFetchAt)
  | 'fetched' // fetched with a body or a 304; re-crawled at nextFetchAt
  | 'redirect' // answered with a redirect to redirectTo
  | 'duplicate' // content duplicates another URL
  | 'gone' // 404/410: not scheduled again
  | 'blocked' // robots.txt or address policy: not scheduled again
  | 'retry' // failed in a way that may pass; due again after a back-off
  | 'error'; // failed for this cycle (attempts spent or not retriable); due again at the next re-crawl

export interface LinkRecord {
  id: string;
  url: string;
  surt: string;
  host: string;
  queueKey: string;
  jobId: string;
  depth: number;
  source: LinkSource | string;
  discoveredAt: number;
  anchors: string[];
  inlinks: number;
  status: LinkStatus;
  fetchCount: number;
  lastFetchAt: number | null;
  lastChangeAt: number | null;
  consecutiveFailures: number;
  lastOutcome: string | null;
  httpStatus: number | null;
  etag: string | null;
  lastModified: string | null;
  digest: string | null;
  redirectTo: string | null;
  /** Redirects followed to reach this URL (0 for linked URLs): bounds redirect chains. */
  redirectHops: number;
  duplicateOf: string | null;
  errorCode: string | null;
  priority: number;
  trafficClass: TrafficClass | string;
  nextFetchAt: number;
  /** Set while a fetcher holds the URL; past this time the URL is due again (lost-task recovery). */
  leaseUntil: number;
  /** How often the lease ran out without an outcome: a poison URL stops after a bounded number. */
  leaseExpiries: number;
}

export interface DueQuery {
  now: number;
  /** Most URLs returned in all. */
  limit: number;
  /** Most URLs of one queue (host) returned: one busy host cannot fill a round. */
  perQueueLimit: number;
}

export interface LinkBaseStats {
  total: number;
  byStatus: Record<string, number>;
  /** URLs whose lease has not run out. */
  leased: number;
  /** URLs due now; only counted when asked for (it may cost a scan). */
  due: number | null;
}

/** A mutation returns the new record, or null to leave it unchanged. */
export type LinkMutation = (current: LinkRecord) => LinkRecord | null;

export interface LinkBase {
  /** Inserts records whose id is not known yet; returns the ids actually inserted. */
  insertNew(records: LinkRecord[]): Promise<string[]>;
  getMany(ids: string[]): Promise<Map<string, LinkRecord>>;
  /**
   * Read-modify-write without lost updates: each mutation sees the latest stored record and is
   * retried if another writer changed it meanwhile. Unknown ids are skipped.
   */
  update(ids: string[], mutate: LinkMutation): Promise<LinkRecord[]>;
  /**
   * Due URLs (nextFetchAt <= now, not leased, status queued/retry/fetched/error) in crawl order: per
   * queue by priority (high first), then depth (breadth-first), then nextFetchAt.
   */
  findDue(query: DueQuery): Promise<LinkRecord[]>;
  /** Leases the given URLs until `until` if they are still due; returns the records leased. */
  lease(ids: string[], until: number, now: number): Promise<LinkRecord[]>;
  stats(now: number, options?: { due?: boolean }): Promise<LinkBaseStats>;
  scan(): AsyncIterable<LinkRecord>;
  /** Makes every acknowledged write durable. */
  flush(): Promise<void>;
  close(): Promise<void>;
}
