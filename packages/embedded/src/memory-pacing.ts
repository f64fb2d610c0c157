import {
  distinctPaceSteps,
  FOOTPRINT_KEEP_MS,
  FOOTPRINT_WINDOW_MS,
  PACE_KEEP_MS,
  PACE_PROBE_MS,
  paceBucketMs,
  type FootprintWindow,
  type PaceBlock,
  type PaceGrant,
  type PaceHold,
  type PaceRequest,
} from '@crawler/core';

interface Pace {
  next: number;
  streak: number;
  /** Blocked until (0: not blocked), blocks in a row, and until when a probe is out. */
  blockedUntil: number;
  blockStreak: number;
  probeUntil: number;
  /** Slots per bucket, per window length: `${windowMs}:${bucket}`. */
  counts: Map<string, number>;
  expiresAt: number;
}

interface Footprint {
  site: string;
  network: string;
  lastPageAt: number | null;
  windows: Map<number, FootprintWindow>;
  expiresAt: number;
}

/** The pacing contract (ports/pacing.ts) in process memory, as the Redis script keeps it; bounded, least recently used first out. */
export class MemoryPacing {
  private readonly paces = new Map<string, Pace>();
  private readonly footprints = new Map<string, Footprint>();

  constructor(
    private readonly now: () => number,
    private readonly maxEntries: number,
  ) {}

  pace(request: PaceRequest): PaceGrant {
    const now = this.now();
    const steps = distinctPaceSteps(request.steps).map((step) => ({
      step,
      id: `${step.namespace}\u0000${step.key}`,
      state: this.paceOf(`${step.namespace}\u0000${step.key}`, now),
    }));
    let slot = now;
    let busyStreak = 0;
    let blockStreak = 0;
    let probe = false;
    for (const { state } of steps) {
      slot = Math.max(slot, state.next);
      busyStreak = Math.max(busyStreak, state.streak);
      if (state.blockedUntil <= 0) continue;
      blockStreak = Math.max(blockStreak, state.blockStreak);
      const wait = now < state.blockedUntil ? state.blockedUntil - now : state.probeUntil - now;
      if (wait > 0) return refusal(wait, busyStreak, 'block', blockStreak);
      probe = true;
    }
    let limitedBy: PaceGrant['limitedBy'] = 'spacing';
    for (let moved = true, rounds = 0; moved && rounds < 50; rounds++) {
      moved = false;
      for (const { step, state } of steps)
        for (const { windowMs, max } of step.limits ?? []) {
          const later = this.afterLimit(state, windowMs, max, slot);
          if (later > slot) {
            slot = later;
            moved = true;
            limitedBy = 'limit';
          }
        }
    }
    if (slot - now > request.maxWaitMs) return refusal(slot - now, busyStreak, limitedBy, blockStreak);
    for (const { step, id, state } of steps) {
      state.next = Math.max(state.next, slot + step.spacingMs);
      let keepUntil = state.next + PACE_KEEP_MS;
      for (const { windowMs } of step.limits ?? []) {
        const bucketMs = paceBucketMs(windowMs);
        const bucket = `${windowMs}:${Math.floor(slot / bucketMs)}`;
        state.counts.set(bucket, (state.counts.get(bucket) ?? 0) + 1);
        keepUntil = Math.max(keepUntil, slot + windowMs + bucketMs);
      }
      for (const [bucket] of state.counts) {
        const [windowMs, index] = bucket.split(':').map(Number) as [number, number];
        if (index < Math.floor((now - windowMs) / paceBucketMs(windowMs)) - 1) state.counts.delete(bucket);
      }
      if (probe && state.blockedUntil > 0) state.probeUntil = slot + PACE_PROBE_MS;
      state.expiresAt = keepUntil;
      this.keep(this.paces, id, state);
    }
    const windowRequests = request.footprint ? this.count(request.footprint, slot, now) : 0;
    return { reserved: true, waitMs: slot - now, busyStreak, limitedBy, blockStreak, probe, windowRequests };
  }

  hold({ namespace, key, holdMs, busyStreak }: PaceHold): void {
    const now = this.now();
    const id = `${namespace}\u0000${key}`;
    const state = this.paceOf(id, now);
    state.next = Math.max(state.next, now + holdMs);
    state.streak = busyStreak;
    state.expiresAt = Math.max(state.expiresAt, state.next + PACE_KEEP_MS);
    this.keep(this.paces, id, state);
  }

  block({ namespace, key, blockedForMs, streak }: PaceBlock): void {
    const now = this.now();
    const id = `${namespace}\u0000${key}`;
    const state = this.paceOf(id, now);
    state.blockedUntil = blockedForMs === null ? 0 : now + blockedForMs;
    state.blockStreak = blockedForMs === null ? 0 : streak;
    state.probeUntil = 0;
    state.expiresAt = Math.max(state.expiresAt, state.blockedUntil + PACE_KEEP_MS, now + PACE_KEEP_MS);
    this.keep(this.paces, id, state);
  }

  readFootprint(namespace: string, site?: string): FootprintWindow[] {
    const now = this.now();
    const windows: FootprintWindow[] = [];
    for (const [id, footprint] of this.footprints) {
      if (!id.startsWith(`${namespace}\u0000`) || footprint.expiresAt <= now) continue;
      if (site !== undefined && footprint.site !== site) continue;
      for (const window of footprint.windows.values())
        if (window.start >= now - FOOTPRINT_KEEP_MS) windows.push({ ...window });
    }
    return windows.sort((a, b) => a.start - b.start || a.site.localeCompare(b.site));
  }

  clear(): void {
    this.paces.clear();
    this.footprints.clear();
  }

  /** The earliest slot at or after `slot` whose window holds fewer than `max` slots. */
  private afterLimit(state: Pace, windowMs: number, max: number, slot: number): number {
    const bucketMs = paceBucketMs(windowMs);
    for (let rounds = 0; rounds < 50; rounds++) {
      const from = Math.floor((slot - windowMs) / bucketMs);
      let count = 0;
      let oldest: number | null = null;
      for (let index = from; index <= Math.floor(slot / bucketMs); index++) {
        const found = state.counts.get(`${windowMs}:${index}`) ?? 0;
        if (found > 0 && oldest === null) oldest = index;
        count += found;
      }
      if (count < max || oldest === null) return slot;
      slot = (oldest + 1) * bucketMs + windowMs;
    }
    return slot;
  }

  private count(footprint: NonNullable<PaceRequest['footprint']>, slot: number, now: number): number {
    const id = `${footprint.namespace}\u0000${footprint.site}\u0000${footprint.network}`;
    const found = this.footprints.get(id);
    const state: Footprint =
      found && found.expiresAt > now
        ? found
        : { site: footprint.site, network: footprint.network, lastPageAt: null, windows: new Map(), expiresAt: 0 };
    const start = Math.floor(slot / FOOTPRINT_WINDOW_MS) * FOOTPRINT_WINDOW_MS;
    let window = state.windows.get(start);
    if (!window) {
      window = {
        site: footprint.site,
        network: footprint.network,
        start,
        requests: 0,
        pages: 0,
        attachments: 0,
        firstPageAt: null,
        lastPageAt: null,
        minIntervalMs: null,
      };
      state.windows.set(start, window);
      for (const old of state.windows.keys()) if (old < now - FOOTPRINT_KEEP_MS) state.windows.delete(old);
    }
    window.requests++;
    if (footprint.kind === 'page') {
      window.pages++;
      if (state.lastPageAt !== null) {
        const gap = Math.abs(slot - state.lastPageAt);
        window.minIntervalMs = window.minIntervalMs === null ? gap : Math.min(window.minIntervalMs, gap);
      }
      state.lastPageAt = Math.max(state.lastPageAt ?? slot, slot);
      window.firstPageAt ??= slot;
      window.lastPageAt = Math.max(window.lastPageAt ?? slot, slot);
    } else window.attachments++;
    state.expiresAt = now + FOOTPRINT_KEEP_MS;
    this.keep(this.footprints, id, state);
    return window.requests;
  }

  private paceOf(id: string, now: number): Pace {
    const state = this.paces.get(id);
    if (state && state.expiresAt > now) return state;
    return { next: 0, streak: 0, blockedUntil: 0, blockStreak: 0, probeUntil: 0, counts: new Map(), expiresAt: 0 };
  }

  /** Re-inserted on every use, so the first entry is the least recently used. */
  private keep<T>(map: Map<string, T>, id: string, value: T): void {
    map.delete(id);
    map.set(id, value);
    while (map.size > this.maxEntries) map.delete(map.keys().next().value as string);
  }
}

function refusal(
  waitMs: number,
  busyStreak: number,
  limitedBy: PaceGrant['limitedBy'],
  blockStreak: number,
): PaceGrant {
  return { reserved: false, waitMs, busyStreak, limitedBy, blockStreak, probe: false, windowRequests: 0 };
}
