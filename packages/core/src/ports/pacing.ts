/**
 * Shared pacing: every fetcher reserves the start time (a slot) of each request to a site in the
 * fingerprint store, so the limits of one politeness queue hold across all fetcher processes and
 * across rebalances. Times are the store's own clock (Redis TIME in distributed mode), so the
 * fetchers' clocks never have to agree; callers only see waits relative to the reply.
 */

/** One key a request is paced by (a politeness queue, a site). */
export interface PaceStep {
  namespace: string;
  key: string;
  /** Least time from this request's slot to the next request's slot on this key. */
  spacingMs: number;
}

export interface PaceRequest {
  /**
   * Every key the request counts against: its slot is the earliest all of them allow, and it is
   * reserved on all. On a Redis Cluster that holds only for keys in one slot (give them one hash
   * tag, `{example.org}`); keys in other slots are reserved group after group, each group not
   * before the previous one's slot.
   */
  steps: PaceStep[];
  /** A slot further than this from now is not reserved; the reply says how long until one could be. */
  maxWaitMs: number;
}

export interface PaceGrant {
  /** True: the slot is this request's, `waitMs` from now. False: nothing was reserved. */
  reserved: boolean;
  /** Time from now to the slot, or (not reserved) until a slot would be free. Never negative. */
  waitMs: number;
  /** The largest back-off streak the keys carry (answers in a row that said "too busy"). */
  busyStreak: number;
}

/** What a finished request says about its key: no slot before `holdMs` from now, and the streak. */
export interface PaceHold {
  namespace: string;
  key: string;
  holdMs: number;
  busyStreak: number;
}

/** A key's pacing state is kept this long after its last slot, so a back-off streak survives a quiet spell. */
export const PACE_KEEP_MS = 3_600_000;

export interface PacingStore {
  /** Reserves a slot for each request, atomically per key: two fetchers never get slots closer than a key's spacing. */
  pace(requests: PaceRequest[]): Promise<PaceGrant[]>;
  /** Pushes keys' next slot later (never earlier) and sets their back-off streak. */
  holdPace(holds: PaceHold[]): Promise<void>;
}

/** Steps with the key of an earlier step folded into it (the larger spacing wins): each key is paced once per request. */
export function distinctPaceSteps(steps: readonly PaceStep[]): PaceStep[] {
  const byKey = new Map<string, PaceStep>();
  for (const step of steps) {
    const id = `${step.namespace}\u0000${step.key}`;
    const seen = byKey.get(id);
    byKey.set(id, seen ? { ...seen, spacingMs: Math.max(seen.spacingMs, step.spacingMs) } : step);
  }
  return [...byKey.values()];
}
