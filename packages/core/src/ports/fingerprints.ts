import type { PacingStore } from './pacing.js';

/**
 * Fingerprints and verdicts with a time-to-live, in namespaces (e.g. "url", "digest", "media"),
 * and the fetchers' shared pacing (pacing.ts). Redis in distributed mode; a TTL map in-process.
 */
export interface PutResult {
  /** True when the key was absent and the value was stored. */
  created: boolean;
  /** The value stored before (when not created). */
  existing: string | null;
}

export interface FingerprintEntry {
  namespace: string;
  key: string;
  value: string;
  ttlMs: number;
}

/** Members to add to one set. */
export interface SetEntry {
  namespace: string;
  key: string;
  members: string[];
  ttlMs: number;
}

/** One key of an approximate set (markSeen). */
export interface SeenEntry {
  key: string;
  /** Added with the key when it is new; tested when it was there (e.g. which fetch added it). */
  marks: string[];
}

export interface SeenResult {
  /** The key was (probably) added before: a false positive is possible, a false negative is not. */
  seen: boolean;
  /** Per mark, whether it was (probably) added with the key; all false for a new key. */
  marked: boolean[];
}

export interface FingerprintStore extends PacingStore {
  /** Stores the value only if the key is absent; on a hit the TTL is refreshed and the old value returned. */
  putIfAbsent(entries: FingerprintEntry[]): Promise<PutResult[]>;
  get(namespace: string, keys: string[]): Promise<(string | null)[]>;
  set(entries: FingerprintEntry[]): Promise<void>;
  /** Deletes values and sets alike. */
  delete(namespace: string, keys: string[]): Promise<void>;
  /** Adds members to a set (e.g. one SimHash band bucket); the set's TTL is refreshed. */
  addToSet(namespace: string, key: string, members: string[], ttlMs: number): Promise<void>;
  /** addToSet for many sets in one call (one round trip per node): e.g. every band of one SimHash. */
  addToSets(entries: SetEntry[]): Promise<void>;
  members(namespace: string, keys: string[]): Promise<string[][]>;
  /**
   * Adds keys to the namespace's approximate set and tells, per key, whether it was there: a
   * scalable Bloom filter in two generations of half the TTL each (seen-filter-layout.ts), so a key
   * is forgotten between ttlMs/2 and ttlMs after it was last seen. Entries are settled in order:
   * a key given twice in one batch is seen the second time.
   */
  markSeen(namespace: string, entries: SeenEntry[], ttlMs: number): Promise<SeenResult[]>;
  close(): Promise<void>;
}
