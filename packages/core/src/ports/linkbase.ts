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
  | 'error' // failed for this cycle (attempts spent or not retriable); due again at the next re-crawl
  | 'blocked_by_site'; // the site answered with a challenge, CAPTCHA or a burst of denials; due again after its block's back-off

/** Statuses whose URLs are handed out again once due; the others are settled for good. */
export const SCHEDULABLE_STATUSES: readonly LinkStatus[] = ['queued', 'retry', 'fetched', 'error', 'blocked_by_site'];

/** One re-fetch of a page: how long after the previous fetch, and whether its content had changed. */
export interface ChangeObservation {
  ms: number;
  changed: boolean;
}

export interface LinkRecord {
  id: string;
  url: string;
  surt: string;
  host: string;
  /** Registrable domain (eTLD+1) of the host. */
  domain: string;
  queueKey: string;
  /** The crawl.status partition of queueKey (link-partition.ts): the scheduler holding it owns the URL. */
  partition: number;
  jobId: string;
  depth: number;
  source: LinkSource | string;
  discoveredAt: number;
  /** Distinct anchor texts of links to the URL, at most MAX_ANCHORS. */
  anchors: string[];
  /** Links to the URL seen on new or changed pages (one per page fetch). */
  inlinks: number;
  status: LinkStatus;
  fetchCount: number;
  lastFetchAt: number | null;
  /** Last fetch that returned the page's content (a body or a 304): what the next change decision compares with. */
  lastSeenAt: number | null;
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
  /** Page value in (0, 1] from the weight function (docs/SCHEDULING.md). */
  value: number;
  /** Value for a first visit; estimated change probability × value for a re-crawl. */
  priority: number;
  /** Priority level, 0 (highest) to LEVELS - 1: levels share each round by weight. */
  level: number;
  /** A random number in [0, 1), drawn at each scheduling: the order among otherwise equal URLs. */
  rank: number;
  trafficClass: TrafficClass | string;
  /** Estimated changes per day (Poisson rate), null until the page was fetched or a sitemap hinted. */
  changeRate: number | null;
  /** The latest re-fetches, oldest first, at most MAX_CHANGE_HISTORY: what the change rate is estimated from. */
  changeHistory: ChangeObservation[];
  /** New URLs a fetch of this page yielded, averaged over its fetches (decaying): hub pages score high. */
  linkYield: number;
  /** Sitemap hints: changefreq as given (daily, weekly...) and lastmod in epoch ms. */
  sitemapChangefreq: string | null;
  sitemapLastmod: number | null;
  nextFetchAt: number;
  /** Set while a fetcher holds the URL; past this time the URL is due again (lost-task recovery). */
  leaseUntil: number;
  /** How often the lease ran out without an outcome: a poison URL stops after a bounded number. */
  leaseExpiries: number;
}

/** Most anchor texts kept per URL. */
export const MAX_ANCHORS = 5;
/** Most re-fetch observations kept per URL: enough for the estimator, bounded in size. */
export const MAX_CHANGE_HISTORY = 24;
/** Priority levels: 0 is the highest. */
export const LEVELS = 4;

export interface DueQuery {
  now: number;
  /** Most URLs returned in all. */
  limit: number;
  /** Most URLs of one queue (host) returned per group (traffic class and level): one busy host cannot fill a round. */
  perQueueLimit: number;
  /** Paused queues and jobs: none of their URLs is returned. */
  exclude?: { queues?: string[]; jobs?: string[] };
  /** Only URLs of these partitions (a scheduler's share of the hosts); every partition when absent. */
  partitions?: readonly number[];
}

export interface LeasedQuery {
  now: number;
  /** Only URLs of these partitions; every partition when absent. */
  partitions?: readonly number[];
  limit: number;
}

/** Named numbers shared by every process on one link base (page budgets, partition epochs). */
export type SharedCounters = Record<string, number>;

export interface LinkBaseStats {
  total: number;
  byStatus: Record<string, number>;
  /** URLs whose lease has not run out. */
  leased: number;
  /** Per job: URLs known, and URLs visited (fetched at least once, or leased now). */
  byJob: Record<string, { total: number; visited: number }>;
  /** URLs due now; only counted when asked for (it may cost a scan). */
  due: number | null;
  /** With `due`: due URLs by traffic class and by level, and the queues with the most due URLs (at most 20). */
  dueDetail: {
    byClass: Record<string, number>;
    byLevel: Record<string, number>;
    topQueues: { queueKey: string; due: number }[];
  } | null;
  /** With `due`: when the next URL not due now comes due (the earliest nextFetchAt after `now`, leases aside); null if none will. */
  nextDueAt: number | null;
}

/** Operator state kept beside the records, so it survives a restart. */
export interface LinkBaseControl {
  pausedJobs: string[];
  pausedQueues: string[];
  /** Crawl jobs added while running (admin API), as given; parsed again when read. */
  jobs: unknown[];
}

export const EMPTY_CONTROL: LinkBaseControl = Object.freeze({
  pausedJobs: [],
  pausedQueues: [],
  jobs: [],
}) as LinkBaseControl;

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
   * Due URLs (nextFetchAt <= now, not leased, status queued/retry/fetched/error, not excluded),
   * queues visited round-robin: for each queue and each group of it (traffic class and level), up
   * to perQueueLimit records in group order. Discovery: depth (breadth-first), then rank (random),
   * then id. Re-crawl classes: nextFetchAt (most overdue first), then rank, then id.
   */
  findDue(query: DueQuery): Promise<LinkRecord[]>;
  /** Leases the given URLs until `until` if they are still due; returns the records leased. */
  lease(ids: string[], until: number, now: number): Promise<LinkRecord[]>;
  /** URLs whose lease has not run out at `now`, at most `limit`: what a new owner of their partitions has in flight. */
  findLeased(query: LeasedQuery): Promise<LinkRecord[]>;
  /** The counters kept under `name` (empty when none were written). */
  getCounters(name: string): Promise<SharedCounters>;
  /**
   * Read-modify-write of the counters under `name` without lost updates, whichever process
   * writes: the mutation sees the latest stored values and is retried if another writer changed
   * them meanwhile; null leaves them unchanged. Returns the values stored after the call.
   */
  updateCounters(name: string, mutate: (current: SharedCounters) => SharedCounters | null): Promise<SharedCounters>;
  stats(now: number, options?: { due?: boolean }): Promise<LinkBaseStats>;
  scan(): AsyncIterable<LinkRecord>;
  getControl(): Promise<LinkBaseControl>;
  putControl(control: LinkBaseControl): Promise<void>;
  /** Makes every acknowledged write durable. */
  flush(): Promise<void>;
  close(): Promise<void>;
}
