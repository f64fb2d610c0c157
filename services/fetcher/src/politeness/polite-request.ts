import { effectivePort, type AddressPolicy } from '../address-policy.js';
import { outcomeOfError } from '../outcome.js';
import type { RobotsCache } from '../robots/robots-cache.js';
import type { RobotsPolicy } from '../robots/robots-txt.js';
import { QueueDeferredError, type Permit, type PolitenessGate } from './politeness-gate.js';
import type { QueueKeyer } from './queue-key.js';
import type { Feedback } from './slow-down.js';

export interface PoliteRequestOptions {
  policy: AddressPolicy;
  robots: RobotsCache | null;
  queueKeyOf: QueueKeyer;
  gate: PolitenessGate;
  /** Cap on a robots.txt Crawl-delay. */
  maxCrawlDelayMs: number;
}

export interface TurnOptions {
  /**
   * A request a page in progress waits for (a frame, a rendering page's sub-request): it goes
   * ahead of the queue's waiting URLs and is never turned away for their number, only when the
   * queue's own pause is longer than it can wait (`maxWaitMs`).
   */
  front?: boolean;
  /** Whether to ask the queue for admission: once per URL (its first hop); later hops wait like any request. */
  admit?: boolean;
  /** Longest wait the caller can afford (front requests); default: FETCHER_MAX_QUEUE_WAIT_MS. */
  maxWaitMs?: number;
  /** Aborting while the request waits for its turn rejects with GateClosedError (the URL is handed back). */
  signal?: AbortSignal;
}

/** Why a request was not sent. */
export type Refusal =
  /** The host's address is refused or does not resolve (outcomeOfError classifies `error`). */
  | { reason: 'unreachable'; error: unknown }
  | { reason: 'robots_unavailable'; failure: NonNullable<RobotsPolicy['failure']> }
  | { reason: 'blocked_robots'; rule: { line: number; pattern: string } | null }
  /** The queue is full, or paused for longer than the request may wait. */
  | { reason: 'queue_full'; queueKey: string; retryAfterMs: number };

export type Turn =
  | { kind: 'go'; queueKey: string; request: PoliteRequest; sitemaps: string[] | null }
  | { kind: 'refused'; refusal: Refusal; sitemaps: string[] | null };

/** Statuses that mean "too much load": they hold the queue (Retry-After or back-off). */
const BUSY = new Set([429, 503]);

/**
 * The one way a request reaches a site, for plain fetches, redirect hops, frames and a rendering
 * page's sub-requests alike: the address policy first (a refused or unresolvable host gets no
 * robots.txt request either), robots.txt, the Crawl-delay (capped), the politeness queue's
 * admission and turn, and afterwards what the answer says about the site's load.
 */
export class PoliteRequests {
  constructor(private readonly options: PoliteRequestOptions) {}

  get gate(): PolitenessGate {
    return this.options.gate;
  }

  /** The politeness queue a URL belongs to. */
  queueKeyOf(url: URL): Promise<string> {
    return this.options.queueKeyOf(url);
  }

  /** Waits for the URL's turn, or says why it may not be sent. Throws GateClosedError only when `signal` aborts. */
  async take(url: URL, turn: TurnOptions = {}): Promise<Turn> {
    const { options } = this;
    let sitemaps: string[] | null = null;
    const refused = (refusal: Refusal): Turn => ({ kind: 'refused', refusal, sitemaps });
    let delayMs = 0;
    let queueKey: string;
    try {
      await options.policy.resolve(url.hostname, effectivePort(url.protocol, url.port));
      if (options.robots) {
        const { policy, fetched } = await options.robots.lookup(url);
        if (fetched && policy.sitemaps.length > 0) sitemaps = policy.sitemaps;
        if (policy.failure) return refused({ reason: 'robots_unavailable', failure: policy.failure });
        const decision = policy.decide(url);
        if (!decision.allowed) return refused({ reason: 'blocked_robots', rule: decision.rule ?? null });
        if (policy.crawlDelaySeconds !== null)
          delayMs = Math.min(policy.crawlDelaySeconds * 1000, options.maxCrawlDelayMs);
      }
      queueKey = await options.queueKeyOf(url);
    } catch (error) {
      return refused({ reason: 'unreachable', error });
    }
    if (turn.admit !== false) {
      const admission = options.gate.admit(queueKey, delayMs, { front: turn.front, maxWaitMs: turn.maxWaitMs });
      if (!admission.admitted) return refused({ reason: 'queue_full', queueKey, retryAfterMs: admission.retryAfterMs });
    }
    try {
      const permit = await options.gate.acquire(queueKey, delayMs, turn.signal, {
        front: turn.front,
        maxWaitMs: turn.maxWaitMs,
      });
      return { kind: 'go', queueKey, request: new PoliteRequest(permit), sitemaps };
    } catch (error) {
      // Other fetchers took the queue's slots for longer than this request may wait.
      if (error instanceof QueueDeferredError)
        return refused({ reason: 'queue_full', queueKey, retryAfterMs: error.retryAfterMs });
      throw error;
    }
  }
}

/** A request that had its turn: how it ended decides when its queue may go again. */
export class PoliteRequest {
  private readonly started = performance.now();

  constructor(private readonly permit: Permit) {}

  /** The site answered with this status (any, redirects included). */
  answered(status: number, headers: Record<string, string>): void {
    const durationMs = performance.now() - this.started;
    this.permit.release(
      BUSY.has(status)
        ? { signal: 'busy', durationMs, retryAfterMs: parseRetryAfter(headers['retry-after']) }
        : { signal: 'answered', durationMs },
    );
  }

  /** The request failed: a timeout or a dropped connection says the site struggles; a refusal or a blocked address says nothing about its load. */
  failed(error: unknown, options: { timedOut?: boolean } = {}): void {
    const { outcome } = outcomeOfError(error);
    const feedback: Feedback | undefined =
      options.timedOut || outcome === 'timeout' || outcome === 'network_error'
        ? { signal: 'answered', durationMs: performance.now() - this.started }
        : undefined;
    this.permit.release(feedback);
  }

  /** The fetcher stopped the request: nothing is learned about the site. */
  abandoned(): void {
    this.permit.release();
  }
}

/** Retry-After as delay-seconds or an HTTP-date, in milliseconds. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
