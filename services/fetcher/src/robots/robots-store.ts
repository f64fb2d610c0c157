import type { FingerprintStore, Logger } from '@crawler/core';
import { errorMessage } from '@crawler/core';
import type { RobotsRecord } from './robots-fetch.js';

/** A robots.txt record in force for an origin, and until when it is trusted. */
export interface RobotsEntry {
  record: RobotsRecord;
  expiresAt: number;
}

const RECORDS = 'robots';
const LOCKS = 'robots-lock';

/**
 * robots.txt records shared by every fetcher through the fingerprint store (Redis in distributed
 * mode), plus a fetch lock so that one fetcher fetches while the others wait for its record.
 * A store failure degrades to "not shared" (each fetcher fetches for itself), never to a crash.
 */
export class RobotsStore {
  constructor(
    private readonly store: FingerprintStore,
    private readonly logger: Logger,
  ) {}

  async read(origin: string): Promise<RobotsEntry | null> {
    try {
      const [value] = await this.store.get(RECORDS, [origin]);
      return value ? (JSON.parse(value) as RobotsEntry) : null;
    } catch (error) {
      this.logger.warn({ origin, err: errorMessage(error) }, 'shared robots.txt record unreadable; fetching it here');
      return null;
    }
  }

  async write(origin: string, entry: RobotsEntry, ttlMs: number): Promise<void> {
    try {
      await this.store.set([
        { namespace: RECORDS, key: origin, value: JSON.stringify(entry), ttlMs: Math.max(1000, ttlMs) },
      ]);
    } catch (error) {
      this.logger.warn({ origin, err: errorMessage(error) }, 'could not share a robots.txt record');
    }
  }

  /** True when this caller now holds the fetch lock of the origin (it expires by itself after ttlMs). */
  async lock(origin: string, owner: string, ttlMs: number): Promise<boolean> {
    try {
      const [result] = await this.store.putIfAbsent([{ namespace: LOCKS, key: origin, value: owner, ttlMs }]);
      return result!.created;
    } catch {
      return true; // no store, no sharing: fetch it ourselves
    }
  }

  async isLocked(origin: string): Promise<boolean> {
    try {
      const [value] = await this.store.get(LOCKS, [origin]);
      return value !== null;
    } catch {
      return false;
    }
  }

  /** Releases the lock if it is still ours (not atomic; the lock outlives the fetch timeout, so a clash needs a stalled process). */
  async unlock(origin: string, owner: string): Promise<void> {
    try {
      const [value] = await this.store.get(LOCKS, [origin]);
      if (value === owner) await this.store.delete(LOCKS, [origin]);
    } catch {
      // The lock expires by itself.
    }
  }
}
