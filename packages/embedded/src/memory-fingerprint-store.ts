import type {
  FingerprintEntry,
  FingerprintStore,
  FootprintWindow,
  PaceBlock,
  PaceGrant,
  PaceHold,
  PaceRequest,
  PutResult,
  SeenEntry,
  SeenResult,
  SetEntry,
} from '@crawler/core';
import { FingerprintJournal, type FingerprintJournalOptions, type FingerprintOp } from './fingerprint-journal.js';
import { MemoryPacing } from './memory-pacing.js';
import { MemorySeenSets, type SeenFilterChange } from './memory-seen-sets.js';

interface Entry {
  value: string;
  expiresAt: number;
}

interface StoredSet {
  members: Set<string>;
  expiresAt: number;
}

export interface MemoryFingerprintStoreOptions extends FingerprintJournalOptions {
  /** Most keys kept, and most sets; past it the least recently used go first (the store stays bounded). */
  maxEntries?: number;
  now?: () => number;
}

/**
 * Fingerprints in process memory with per-key TTL and an LRU bound. A Map keeps insertion order,
 * so re-inserting on every hit makes its first key the least recently used. Opened on a folder
 * (`open`), every change is journaled there first, so a crawl that stops or is killed resumes
 * with everything it had decided (fingerprint-journal.ts); `new` gives a store that forgets.
 */
export class MemoryFingerprintStore implements FingerprintStore {
  private readonly values = new Map<string, Entry>();
  private readonly sets = new Map<string, StoredSet>();
  private readonly pacing: MemoryPacing;
  private readonly seen: MemorySeenSets;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private journal: FingerprintJournal | null = null;

  constructor(options: MemoryFingerprintStoreOptions = {}) {
    this.maxEntries = options.maxEntries ?? 5_000_000;
    this.now = options.now ?? Date.now;
    this.pacing = new MemoryPacing(this.now, this.maxEntries);
    this.seen = new MemorySeenSets(this.now);
  }

  /** A store kept in `dir`: what an earlier store there held (and has not expired) is back. */
  static async open(dir: string, options: MemoryFingerprintStoreOptions = {}): Promise<MemoryFingerprintStore> {
    const store = new MemoryFingerprintStore(options);
    store.journal = await FingerprintJournal.open(
      dir,
      (op) => store.replay(op),
      () => store.capture(),
      options,
    );
    store.dropExpired();
    return store;
  }

  async putIfAbsent(entries: FingerprintEntry[]): Promise<PutResult[]> {
    const now = this.now();
    const ops: FingerprintOp[] = [];
    const results = entries.map(({ namespace, key, value, ttlMs }) => {
      const id = `${namespace}\u0000${key}`;
      const existing = this.live(id, now);
      if (existing) {
        this.values.delete(id);
        this.values.set(id, { value: existing.value, expiresAt: now + ttlMs });
        ops.push(['t', id, now + ttlMs]);
        return { created: false, existing: existing.value };
      }
      this.store(id, { value, expiresAt: now + ttlMs });
      ops.push(['v', id, value, now + ttlMs]);
      return { created: true, existing: null };
    });
    this.journal?.append(ops);
    return results;
  }

  async get(namespace: string, keys: string[]): Promise<(string | null)[]> {
    const now = this.now();
    return keys.map((key) => this.live(`${namespace}\u0000${key}`, now)?.value ?? null);
  }

  async set(entries: FingerprintEntry[]): Promise<void> {
    const now = this.now();
    const ops: FingerprintOp[] = [];
    for (const { namespace, key, value, ttlMs } of entries) {
      const id = `${namespace}\u0000${key}`;
      this.values.delete(id);
      this.store(id, { value, expiresAt: now + ttlMs });
      ops.push(['v', id, value, now + ttlMs]);
    }
    this.journal?.append(ops);
  }

  async delete(namespace: string, keys: string[]): Promise<void> {
    const ops: FingerprintOp[] = [];
    for (const key of keys) {
      const id = `${namespace}\u0000${key}`;
      this.values.delete(id);
      this.sets.delete(id);
      ops.push(['d', id]);
    }
    this.journal?.append(ops);
  }

  async addToSet(namespace: string, key: string, members: string[], ttlMs: number): Promise<void> {
    await this.addToSets([{ namespace, key, members, ttlMs }]);
  }

  async addToSets(entries: SetEntry[]): Promise<void> {
    const now = this.now();
    const ops: FingerprintOp[] = [];
    for (const { namespace, key, members, ttlMs } of entries) {
      const id = `${namespace}\u0000${key}`;
      const fresh = this.addMembers(id, members, now + ttlMs, (entry) => !entry || entry.expiresAt <= now);
      ops.push(['s', id, now + ttlMs, fresh ? 1 : 0, ...members]);
    }
    this.journal?.append(ops);
  }

  async members(namespace: string, keys: string[]): Promise<string[][]> {
    const now = this.now();
    return keys.map((key) => {
      const entry = this.sets.get(`${namespace}\u0000${key}`);
      return entry && entry.expiresAt > now ? [...entry.members] : [];
    });
  }

  async markSeen(namespace: string, entries: SeenEntry[], ttlMs: number): Promise<SeenResult[]> {
    const { results, changes } = this.seen.mark(namespace, entries, ttlMs);
    this.journal?.append(changes.map(seenOp));
    return results;
  }

  /** Bytes the approximate sets of markSeen hold. */
  get seenBytes(): number {
    return this.seen.bytes;
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
    await this.journal?.close();
    this.journal = null;
    this.values.clear();
    this.sets.clear();
    this.pacing.clear();
    this.seen.clear();
  }

  /** Adds members to a set, starting it over when `restart` says so; true when it was started over. */
  private addMembers(
    id: string,
    members: string[],
    expiresAt: number,
    restart: (entry: StoredSet | undefined) => boolean,
  ): boolean {
    let entry = this.sets.get(id);
    const fresh = restart(entry);
    if (fresh || !entry) entry = { members: new Set(), expiresAt: 0 };
    // Re-inserted on every add, so the first set in the map is the least recently used.
    this.sets.delete(id);
    this.sets.set(id, entry);
    for (const member of members) entry.members.add(member);
    entry.expiresAt = expiresAt;
    while (this.sets.size > this.maxEntries) this.sets.delete(this.sets.keys().next().value as string);
    return fresh;
  }

  private replay(op: FingerprintOp): void {
    switch (op[0]) {
      case 'v':
        this.values.delete(op[1]);
        this.store(op[1], { value: op[2], expiresAt: op[3] });
        return;
      case 't': {
        const entry = this.values.get(op[1]);
        if (!entry) return;
        this.values.delete(op[1]);
        this.values.set(op[1], { value: entry.value, expiresAt: op[2] });
        return;
      }
      case 's': {
        const [, id, expiresAt, fresh, ...members] = op;
        this.addMembers(id, members, expiresAt, () => fresh === 1);
        return;
      }
      case 'd':
        this.values.delete(op[1]);
        this.sets.delete(op[1]);
        return;
      case 'b': {
        const [, id, expiresAt, load, ...bits] = op;
        this.seen.apply({ id, expiresAt, load, bits });
        return;
      }
      case 'f': {
        const [, id, expiresAt, load, offset, base64] = op;
        this.seen.apply({ id, expiresAt, load, bits: [], bytes: { offset, base64 } });
      }
    }
  }

  /**
   * The live state as ops, read from references taken now: a value replaced later keeps its old
   * object, and a set that grows later is read grown, which the journal's adds replay onto unchanged.
   */
  private capture(): Iterable<FingerprintOp> {
    const now = this.now();
    const valueIds = [...this.values.keys()];
    const values = [...this.values.values()];
    const setIds = [...this.sets.keys()];
    const sets = [...this.sets.values()];
    const seen = [...this.seen.capture()];
    return (function* (): Generator<FingerprintOp> {
      for (let i = 0; i < values.length; i++)
        if (values[i]!.expiresAt > now) yield ['v', valueIds[i]!, values[i]!.value, values[i]!.expiresAt];
      for (let i = 0; i < sets.length; i++)
        if (sets[i]!.expiresAt > now) yield ['s', setIds[i]!, sets[i]!.expiresAt, 1, ...sets[i]!.members];
      for (const change of seen) yield seenOp(change);
    })();
  }

  private dropExpired(): void {
    const now = this.now();
    for (const [id, entry] of this.values) if (entry.expiresAt <= now) this.values.delete(id);
    for (const [id, entry] of this.sets) if (entry.expiresAt <= now) this.sets.delete(id);
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

function seenOp(change: SeenFilterChange): FingerprintOp {
  return change.bytes
    ? ['f', change.id, change.expiresAt, change.load, change.bytes.offset, change.bytes.base64]
    : ['b', change.id, change.expiresAt, change.load, ...change.bits];
}
