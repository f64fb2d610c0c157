import { randomUUID } from 'node:crypto';
import type { FingerprintStore, Logger } from '@crawler/core';
import type { HttpClient } from '../http-client.js';
import { fetchRobots, type RobotsRecord } from './robots-fetch.js';
import { RobotsStore, type RobotsEntry } from './robots-store.js';
import { allowAll, disallowAll, parseRobotsTxt, type RobotsPolicy } from './robots-txt.js';

export interface RobotsCacheOptions {
  client: HttpClient;
  productToken: string;
  /** How long a fetched robots.txt (or a 4xx "allow all") is trusted. */
  ttlMs: number;
  /** How long an unavailable robots.txt (5xx, 429, no answer) keeps the site off limits before it is tried again. */
  errorTtlMs: number;
  /** While robots.txt is unavailable, the last good copy is used if it is younger than this. */
  staleMs: number;
  timeoutMs: number;
  /** Shared records (Redis in distributed mode); null keeps the cache in this process only. */
  store: FingerprintStore | null;
  maxEntries?: number;
  logger: Logger;
  now?: () => number;
  /** How often a fetcher waiting for another fetcher's robots.txt fetch looks for the result. */
  lockPollMs?: number;
  /** Called once per network fetch of a robots.txt, for metrics. */
  onFetch?: (record: RobotsRecord) => void;
}

export interface RobotsLookup {
  policy: RobotsPolicy;
  /** True only for the lookup that fetched a new robots.txt file: it hands the Sitemap lines on. */
  fetched: boolean;
}

interface Local {
  entry: RobotsEntry;
  policy: RobotsPolicy;
}

/**
 * robots.txt per origin: parsed policies in a bounded in-process map, in front of records shared
 * by every fetcher. Concurrent lookups share one fetch, across processes too (a lock in the store).
 * 2xx is parsed; 4xx allows everything; 5xx, 429 or no answer keep the site off limits until
 * errorTtlMs passes, unless a good copy younger than staleMs exists (RFC 9309 2.3.1.4, 2.4).
 */
export class RobotsCache {
  private readonly local = new Map<string, Local>();
  private readonly inFlight = new Map<string, Promise<Local & { fetched: boolean }>>();
  private readonly shared: RobotsStore | null;
  private readonly now: () => number;
  private readonly owner = randomUUID();
  hits = 0;
  misses = 0;

  constructor(private readonly options: RobotsCacheOptions) {
    this.shared = options.store ? new RobotsStore(options.store, options.logger) : null;
    this.now = options.now ?? Date.now;
  }

  async lookup(url: URL): Promise<RobotsLookup> {
    const origin = url.origin;
    const cached = this.local.get(origin);
    if (cached && cached.entry.expiresAt > this.now()) {
      this.hits++;
      return { policy: cached.policy, fetched: false };
    }
    const pending = this.inFlight.get(origin);
    if (pending) return { policy: (await pending).policy, fetched: false };
    this.misses++;
    const load = this.load(origin, cached?.entry ?? null).finally(() => this.inFlight.delete(origin));
    this.inFlight.set(origin, load);
    const loaded = await load;
    return { policy: loaded.policy, fetched: loaded.fetched };
  }

  async policyFor(url: URL): Promise<RobotsPolicy> {
    return (await this.lookup(url)).policy;
  }

  private async load(origin: string, previous: RobotsEntry | null): Promise<Local & { fetched: boolean }> {
    if (!this.shared) return this.fetchAndKeep(origin, previous);
    const deadline = this.now() + this.options.timeoutMs + 1000;
    for (;;) {
      const shared = await this.shared.read(origin);
      if (shared && shared.expiresAt > this.now()) return { ...this.keep(origin, shared), fetched: false };
      if (await this.shared.lock(origin, this.owner, this.options.timeoutMs + 5000)) {
        try {
          return await this.fetchAndKeep(origin, shared ?? previous);
        } finally {
          await this.shared.unlock(origin, this.owner);
        }
      }
      // Another fetcher is fetching it: wait for its record, unless it takes longer than a fetch may.
      if (this.now() > deadline) return this.fetchAndKeep(origin, shared ?? previous);
      await new Promise((resolve) => setTimeout(resolve, this.options.lockPollMs ?? 100));
    }
  }

  private async fetchAndKeep(origin: string, previous: RobotsEntry | null): Promise<Local & { fetched: boolean }> {
    const { record } = await fetchRobots(
      this.options.client,
      new URL('/robots.txt', origin),
      this.options.timeoutMs,
      this.now,
    );
    this.options.onFetch?.(record);
    const now = this.now();
    let entry: RobotsEntry;
    if (record.kind !== 'unavailable') entry = { record, expiresAt: now + this.options.ttlMs };
    else if (
      previous &&
      previous.record.kind !== 'unavailable' &&
      previous.record.fetchedAt + this.options.staleMs > now
    ) {
      this.options.logger.info(
        { origin, code: record.errorCode },
        'robots.txt unavailable; using the last good copy meanwhile',
      );
      entry = { record: previous.record, expiresAt: now + this.options.errorTtlMs };
    } else {
      this.options.logger.info(
        { origin, code: record.errorCode },
        'robots.txt unavailable; site treated as disallowed for now',
      );
      entry = { record, expiresAt: now + this.options.errorTtlMs };
    }
    // Good copies stay in the store past their expiry, so a later outage can fall back on them.
    const keepFor =
      entry.record.kind === 'unavailable'
        ? entry.expiresAt - now
        : Math.max(entry.expiresAt, entry.record.fetchedAt + this.options.staleMs) - now;
    await this.shared?.write(origin, entry, keepFor);
    return { ...this.keep(origin, entry), fetched: entry.record === record && record.kind === 'file' };
  }

  private keep(origin: string, entry: RobotsEntry): Local {
    const local = { entry, policy: policyOf(entry.record, this.options.productToken) };
    this.local.delete(origin);
    this.local.set(origin, local);
    const max = this.options.maxEntries ?? 100_000;
    while (this.local.size > max) this.local.delete(this.local.keys().next().value as string);
    return local;
  }
}

export function policyOf(record: RobotsRecord, productToken: string): RobotsPolicy {
  if (record.kind === 'file') return parseRobotsTxt(record.body, productToken);
  if (record.kind === 'allow-all') return allowAll;
  return { ...disallowAll, failure: { httpStatus: record.httpStatus, error: { code: record.errorCode } } };
}
