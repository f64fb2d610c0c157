import type {
  FingerprintEntry,
  FingerprintStore,
  FootprintWindow,
  PaceBlock,
  PaceGrant,
  PaceHold,
  PaceRequest,
  PutResult,
  SetEntry,
} from '@crawler/core';
import { MemoryPacing } from './memory-pacing.js';

interface Entry {
  value: string;
  expiresAt: number;
}

interface StoredSet {
  members: Set<string>;
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
  private readonly pacing: MemoryPacing;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(options: MemoryFingerprintStoreOptions = {}) {
    this.maxEntries = options.maxEntries ?? 5_000_000;
    this.now = options.now ?? Date.now;
    this.pacing = new MemoryPacing(this.now, this.maxEntries);
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
    return requests.map((request) => this.pacing.pace(request));
  }

  async holdPace(holds: PaceHold[]): Promise<void> {
    for (const hold of holds) this.pacing.hold(hold);
  }

  async blockPace(blocks: PaceBlock[]): Promise<void> {
    for (const block of blocks) this.pacing.block(block);
  }

  async readFootprint(namespace: string, options: { site?: string } = {}): Promise<FootprintWindow[]> {
    return this.pacing.readFootprint(namespace, options.site);
  }

  get size(): number {
    return this.values.size;
  }

  async close(): Promise<void> {
    this.values.clear();
    this.sets.clear();
    this.pacing.clear();
  }

  private live(id: string, now: number): Entry | undefined {
    const entry = this.values.get(id);
    if (!entry) return undefined;
    if (entry.expiresAt > now) return entry;
    this.values.delete(id);
    return undefined;
  }

  private store(id: string, entry: Entry): void {
    this.values.set(id, entry);
    while (this.values.size > this.maxEntries) {
      const oldest = this.values.keys().next().value as string;
      this.values.delete(oldest);
    }
  }
}
