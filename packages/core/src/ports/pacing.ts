/**
 * Shared pacing: every fetcher reserves the start time (a slot) of each request to a site in the
 * fingerprint store, so the limits of a politeness queue and a site's budget hold across all
 * fetcher processes and across rebalances, a site's block holds for every fetcher, and the
 * crawler's footprint on each site is counted as the site counts it. Times are the store's own
 * clock (Redis TIME in distributed mode), so the fetchers' clocks never have to agree; callers
 * see waits relative to the reply, and footprint times on the store's clock.
 */

/** A ceiling on the slots of a key in any sliding window of `windowMs` (counted in tenths of the window, so never exceeded). */
export interface PaceLimit {
  windowMs: number;
  max: number;
}

/** One key a request is paced by (a politeness queue, a site). */
export interface PaceStep {
  namespace: string;
  key: string;
  /** Least time from this request's slot to the next request's slot on this key. */
  spacingMs: number;
  limits?: PaceLimit[];
}

/** What a request adds to its site's footprint: requests, pages and attachments per 10-minute window, per egress network. */
export interface PaceFootprint {
  namespace: string;
  site: string;
  /** Our egress network the site sees the request from (a /24, a /48, or a name). */
  network: string;
  kind: 'page' | 'attachment';
}

export interface PaceRequest {
  /**
   * Every key the request counts against: its slot is the earliest all of them allow, and it is
   * reserved on all. On a Redis Cluster that holds only for keys in one slot (give them one hash
   * tag, `{example.org}`); keys in other slots are reserved group after group, each group not
   * before the previous one's slot, and the footprint goes with the last group (give it the
   * last step's tag).
   */
  steps: PaceStep[];
  /** A slot further than this from now is not reserved; the reply says how long until one could be. */
  maxWaitMs: number;
  /** Counted at the slot, when one is reserved. */
  footprint?: PaceFootprint;
}

export interface PaceGrant {
  /** True: the slot is this request's, `waitMs` from now. False: nothing was reserved. */
  reserved: boolean;
  /** Time from now to the slot, or (not reserved) until a slot would be free. Never negative. */
  waitMs: number;
  /** The largest back-off streak the keys carry (answers in a row that said "too busy"). */
  busyStreak: number;
  /** What set the slot: the keys' spacing, a window ceiling, or a block (a blocked key reserves nothing but its probe). */
  limitedBy: 'spacing' | 'limit' | 'block';
  /** Blocks in a row of a blocked key (0: none). */
  blockStreak: number;
  /** The one request a blocked key lets through once its block is over: its answer says whether the block goes on. */
  probe: boolean;
  /** Requests the footprint's site got from its network in the slot's window, this one included (0 without a footprint). */
  windowRequests: number;
}

/** What a finished request says about its key: no slot before `holdMs` from now, and the streak. */
export interface PaceHold {
  namespace: string;
  key: string;
  holdMs: number;
  busyStreak: number;
}

/** A key blocked for `blockedForMs` (the streak-th block in a row), or cleared (null): requests wait out a block, then one probes. */
export interface PaceBlock {
  namespace: string;
  key: string;
  blockedForMs: number | null;
  streak: number;
}

/** One 10-minute window of what one site received from one of our egress networks. */
export interface FootprintWindow {
  site: string;
  network: string;
  /** Window start, epoch milliseconds on the store's clock. */
  start: number;
  requests: number;
  pages: number;
  attachments: number;
  firstPageAt: number | null;
  lastPageAt: number | null;
  /** Shortest time between two page requests (the previous window's last page included); null below two pages. */
  minIntervalMs: number | null;
}

/** A key's pacing state is kept this long after its last slot, so a back-off streak survives a quiet spell. */
export const PACE_KEEP_MS = 3_600_000;
/** How long the one probe of a block that ended may take before another request may probe. */
export const PACE_PROBE_MS = 120_000;
/** Sites measure crawlers in 10-minute windows; so does the footprint. */
export const FOOTPRINT_WINDOW_MS = 600_000;
/** Footprint windows are kept this long. */
export const FOOTPRINT_KEEP_MS = 48 * 3_600_000;

export interface PacingStore {
  /** Reserves a slot for each request, atomically per key: two fetchers never get slots closer than a key's spacing. */
  pace(requests: PaceRequest[]): Promise<PaceGrant[]>;
  /** Pushes keys' next slot later (never earlier) and sets their back-off streak. */
  holdPace(holds: PaceHold[]): Promise<void>;
  /** Blocks keys for a while, or clears their block. */
  blockPace(blocks: PaceBlock[]): Promise<void>;
  /** Footprint windows of the last FOOTPRINT_KEEP_MS, oldest first; of one site (host or domain as counted) if given. */
  readFootprint(namespace: string, options?: { site?: string }): Promise<FootprintWindow[]>;
}

/** Steps with the key of an earlier step folded into it (the larger spacing, every limit): each key is paced once per request. */
export function distinctPaceSteps(steps: readonly PaceStep[]): PaceStep[] {
  const byKey = new Map<string, PaceStep>();
  for (const step of steps) {
    const id = `${step.namespace}\u0000${step.key}`;
    const seen = byKey.get(id);
    byKey.set(
      id,
      seen
        ? {
            ...seen,
            spacingMs: Math.max(seen.spacingMs, step.spacingMs),
            limits: [...(seen.limits ?? []), ...(step.limits ?? [])],
          }
        : step,
    );
  }
  return [...byKey.values()];
}

/** The ceiling's bucket: a tenth of its window. A window is counted over the buckets it touches, so a count is never low. */
export function paceBucketMs(windowMs: number): number {
  return Math.max(1, Math.floor(windowMs / 10));
}
