import type { Logger } from '@crawler/core';
import type { HttpClient } from '../http-client.js';
import { allowAll, disallowAll, parseRobotsTxt, ROBOTS_PARSE_LIMIT, type RobotsPolicy } from './robots-txt.js';

export interface RobotsCacheOptions {
  client: HttpClient;
  productToken: string;
  /** How long a fetched robots.txt is trusted. */
  ttlMs: number;
  /** How long a site whose robots.txt failed (5xx, unreachable) is treated as fully disallowed. */
  errorTtlMs: number;
  timeoutMs: number;
  maxEntries?: number;
  logger: Logger;
}

interface CacheEntry {
  policy: RobotsPolicy;
  expiresAt: number;
}

const MAX_ROBOTS_REDIRECTS = 5;

/**
 * robots.txt per origin, fetched once (concurrent callers share the fetch) and cached: 2xx is
 * parsed; 4xx means everything is allowed; 5xx, 429 or no answer mean nothing is allowed until
 * errorTtlMs has passed and it is tried again (RFC 9309 2.3.1).
 */
export class RobotsCache {
  private readonly entries = new Map<string, CacheEntry>();
  private readonly inFlight = new Map<string, Promise<RobotsPolicy>>();
  hits = 0;
  misses = 0;

  constructor(private readonly options: RobotsCacheOptions) {}

  async policyFor(url: URL): Promise<RobotsPolicy> {
    const origin = url.origin;
    const cached = this.entries.get(origin);
    if (cached && cached.expiresAt > Date.now()) {
      this.hits++;
      return cached.policy;
    }
    let pending = this.inFlight.get(origin);
    if (!pending) {
      this.misses++;
      pending = this.load(origin).finally(() => this.inFlight.delete(origin));
      this.inFlight.set(origin, pending);
    }
    return pending;
  }

  private async load(origin: string): Promise<RobotsPolicy> {
    const { policy, ttlMs } = await this.fetchPolicy(origin);
    this.entries.delete(origin);
    this.entries.set(origin, { policy, expiresAt: Date.now() + ttlMs });
    const max = this.options.maxEntries ?? 100_000;
    while (this.entries.size > max) this.entries.delete(this.entries.keys().next().value as string);
    return policy;
  }

  private async fetchPolicy(origin: string): Promise<{ policy: RobotsPolicy; ttlMs: number }> {
    let url = new URL('/robots.txt', origin);
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    try {
      for (let hop = 0; hop <= MAX_ROBOTS_REDIRECTS; hop++) {
        const response = await this.options.client.get({ url, signal, maxBodyBytes: ROBOTS_PARSE_LIMIT + 1024, wantBody: (status) => status >= 200 && status < 300 });
        const location = response.headers.location;
        if (response.status >= 300 && response.status < 400 && location) {
          url = new URL(location, url);
          continue;
        }
        if (response.status >= 200 && response.status < 300) return { policy: parseRobotsTxt(response.body.toString('utf8'), this.options.productToken), ttlMs: this.options.ttlMs };
        if (response.status === 429 || response.status >= 500) return { policy: { ...disallowAll, failure: { httpStatus: response.status, error: null } }, ttlMs: this.options.errorTtlMs };
        return { policy: allowAll, ttlMs: this.options.ttlMs };
      }
      return { policy: allowAll, ttlMs: this.options.ttlMs };
    } catch (error) {
      if ((error as { code?: string }).code === 'BLOCKED_ADDRESS') throw error;
      this.options.logger.info({ origin, err: (error as Error).message }, 'robots.txt unreachable; site treated as disallowed for now');
      return { policy: { ...disallowAll, failure: { httpStatus: null, error } }, ttlMs: this.options.errorTtlMs };
    }
  }
}
