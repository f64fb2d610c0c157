import {
  distinctPaceSteps,
  PACE_KEEP_MS,
  type FingerprintEntry,
  type FingerprintStore,
  type PaceGrant,
  type PaceHold,
  type PaceRequest,
  type PutResult,
  type SetEntry,
} from '@crawler/core';

interface Entry {
  value: string;
  expiresAt: number;
}

interface StoredSet {
  members: Set<string>;
  expiresAt: number;
}

interface Pace {
  next: number;
  streak: number;
  expiresAt: number;
}

export interface MemoryFingerprintStoreOptions {
  /** Most keys kept, and most sets; past it the least recently used go first (the store stays bounded). */
  maxEntries?: number;
  now?: () => number;
}

/**
 * Fingerprints in process memory with per-key TTL and an LRU bound. A Map keeps insertion order,
 * so re-inserting on every hit makes its first key the least recently used.
 */
export class MemoryFingerprintStore implements FingerprintStore {
  private readonly values = new Map<string, Entry>();
  private readonly sets = new Map<string, StoredSet>();
  private readonly paces = new Map<string, Pace>();
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(options: MemoryFingerprintStoreOptions = {}) {
    this.maxEntries = options.maxEntries ?? 5_000_000;
    this.now = options.now ?? Date.now;
  }

  async putIfAbsent(entries: FingerprintEntry[]): Promise<PutResult[]> {
    const now = this.now();
    return entries.map(({ namespace, key, value, ttlMs }) => {
      const id = `${namespace}\u0000${key}`;
      const existing = this.live(id, now);
      if (existing) {
        this.values.delete(id);
        this.values.set(id, { value: existing.value, expiresAt: now + ttlMs });
        return { created: false, existing: existing.value };
      }
      this.store(id, { value, expiresAt: now + ttlMs });
      return { created: true, existing: null };
    });
  }

  async get(namespace: string, keys: string[]): Promise<(string | null)[]> {
    const now = this.now();
    return keys.map((key) => this.live(`${namespace}\u0000${key}`, now)?.value ?? null);
  }

  async set(entries: FingerprintEntry[]): Promise<void> {
    const now = this.now();
    for (const { namespace, key, value, ttlMs } of entries) {
      const id = `${namespace}\u0000${key}`;
      this.values.delete(id);
      this.store(id, { value, expiresAt: now + ttlMs });
    }
  }

  async delete(namespace: string, keys: string[]): Promise<void> {
    for (const key of keys) {
      this.values.delete(`${namespace}\u0000${key}`);
      this.sets.delete(`${namespace}\u0000${key}`);
    }
  }

  async addToSet(namespace: string, key: string, members: string[], ttlMs: number): Promise<void> {
    await this.addToSets([{ namespace, key, members, ttlMs }]);
  }

  async addToSets(entries: SetEntry[]): Promise<void> {
    const now = this.now();
    for (const { namespace, key, members, ttlMs } of entries) {
      const id = `${namespace}\u0000${key}`;
      let entry = this.sets.get(id);
      if (!entry || entry.expiresAt <= now) entry = { members: new Set(), expiresAt: 0 };
      // Re-inserted on every add, so the first set in the map is the least recently used.
      this.sets.delete(id);
      this.sets.set(id, entry);
      for (const member of members) entry.members.add(member);
      entry.expiresAt = now + ttlMs;
      while (this.sets.size > this.maxEntries) this.sets.delete(this.sets.keys().next().value as string);
    }
  }

  async members(namespace: string, keys: string[]): Promise<string[][]> {
    const now = this.now();
    return keys.map((key) => {
      const entry = this.sets.get(`${namespace}\u0000${key}`);
      return entry && entry.expiresAt > now ? [...entry.members] : [];
    });
  }

  async pace(requests: PaceRequest[]): Promise<PaceGrant[]> {
    return requests.map((request) => {
      const { maxWaitMs } = request;
      const steps = distinctPaceSteps(request.steps);
      const now = this.now();
      const states = steps.map((step) => this.paceOf(`${step.namespace}\u0000${step.key}`, now));
      const slot = Math.max(now, ...states.map((state) => state.next));
      const busyStreak = Math.max(0, ...states.map((state) => state.streak));
      if (slot - now > maxWaitMs) return { reserved: false, waitMs: slot - now, busyStreak };
      steps.forEach((step, i) => {
        const state = states[i]!;
        state.next = Math.max(state.next, slot + step.spacingMs);
        state.expiresAt = state.next + PACE_KEEP_MS;
        this.keepPace(`${step.namespace}\u0000${step.key}`, state);
      });
      return { reserved: true, waitMs: slot - now, busyStreak };
    });
  }

  async holdPace(holds: PaceHold[]): Promise<void> {
    const now = this.now();
    for (const { namespace, key, holdMs, busyStreak } of holds) {
      const id = `${namespace}\u0000${key}`;
      const state = this.paceOf(id, now);
      state.next = Math.max(state.next, now + holdMs);
      state.streak = busyStreak;
      state.expiresAt = state.next + PACE_KEEP_MS;
      this.keepPace(id, state);
    }
  }

  get size(): number {
    return this.values.size;
  }

  async close(): Promise<void> {
    this.values.clear();
    this.sets.clear();
    this.paces.clear();
  }

  private live(id: string, now: number): Entry | undefined {
    const entry = this.values.get(id);
    if (!entry) return undefined;
    if (entry.expiresAt > now) return entry;
    this.values.delete(id);
    return undefined;
  }

  private paceOf(id: string, now: number): Pace {
    const state = this.paces.get(id);
    return state && state.expiresAt > now ? state : { next: 0, streak: 0, expiresAt: 0 };
  }

  /** Re-inserted on every use, so the first pace in the map is the least recently used. */
  private keepPace(id: string, state: Pace): void {
    this.paces.delete(id);
    this.paces.set(id, state);
    while (this.paces.size > this.maxEntries) this.paces.delete(this.paces.keys().next().value as string);
  }

  private store(id: string, entry: Entry): void {
    this.values.set(id, entry);
    while (this.values.size > this.maxEntries) {
      const oldest = this.values.keys().next().value as string;
      this.values.delete(oldest);
    }
  }
}
