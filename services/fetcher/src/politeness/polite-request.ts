import { effectivePort, type AddressPolicy } from '../address-policy.js';
import type { BlockVerdict, SiteBlocks } from '../blocks/site-blocks.js';
import { outcomeOfError } from '../outcome.js';
import type { RobotsCache } from '../robots/robots-cache.js';
import type { RobotsPolicy } from '../robots/robots-txt.js';
import type { EgressNetwork } from './egress-network.js';
import { QueueDeferredError, type Permit, type PolitenessGate } from './politeness-gate.js';
import type { QueueKeyer } from './queue-key.js';
import type { SiteBudgets } from './site-budgets.js';
import type { SiteHolds } from './site-holds.js';
import type { Feedback } from './slow-down.js';

export interface PoliteRequestOptions {
  policy: AddressPolicy;
  robots: RobotsCache | null;
  queueKeyOf: QueueKeyer;
  gate: PolitenessGate;
  /** Cap on a robots.txt Crawl-delay or Request-rate interval. */
  maxCrawlDelayMs: number;
  budgets: SiteBudgets;
  holds: SiteHolds;
  blocks: SiteBlocks;
  egress: EgressNetwork;
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
  /** The crawl job, whose overrides may set the site's budget. */
  jobId?: string;
  /** A page (a document a visitor would view) or an attachment (a script, a stylesheet, a fetch of a rendering page). */
  kind?: 'page' | 'attachment';
}

/** Why a request was not sent. */
export type Refusal =
  /** The host's address is refused or does not resolve (outcomeOfError classifies `error`). */
  | { reason: 'unreachable'; error: unknown }
  | { reason: 'robots_unavailable'; failure: NonNullable<RobotsPolicy['failure']> }
  | { reason: 'blocked_robots'; rule: { line: number; pattern: string } | null }
  /** The queue is full, or paused for longer than the request may wait. */
  | { reason: 'queue_full'; queueKey: string; retryAfterMs: number }
  /** The site blocks us (a challenge, a burst of denials...): it is left alone until its probe. */
  | { reason: 'site_blocked'; site: string; retryAfterMs: number }
  /** The site's budget (requests per 10 minutes or per day) is spent until then. */
  | { reason: 'site_budget'; site: string; retryAfterMs: number };

export type Turn =
  | { kind: 'go'; queueKey: string; site: string; request: PoliteRequest; sitemaps: string[] | null }
  | { kind: 'refused'; refusal: Refusal; sitemaps: string[] | null };

/** Statuses that mean "too much load": they hold the queue (Retry-After or back-off). */
const BUSY = new Set([429, 503]);

/**
 * The one way a request reaches a site, for plain fetches, redirect hops, frames and a rendering
 * page's sub-requests alike: the address policy first (a refused or unresolvable host gets no
 * robots.txt request either), robots.txt, the Crawl-delay and Request-rate (capped), a site we
 * know to block us or to be out of budget, the politeness queue's admission and turn (the
 * queue's and the site's slot, shared by all fetchers, and the request counted in the site's
 * footprint), and afterwards what the answer says about the site's load and whether it blocks us.
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
    let robots: RobotsPolicy | null = null;
    let queueKey: string;
    let address: string;
    try {
      ({ address } = await options.policy.resolve(url.hostname, effectivePort(url.protocol, url.port)));
      if (options.robots) {
        const lookup = await options.robots.lookup(url);
        robots = lookup.policy;
        if (lookup.fetched && robots.sitemaps.length > 0) sitemaps = robots.sitemaps;
        if (robots.failure) return refused({ reason: 'robots_unavailable', failure: robots.failure });
        const decision = robots.decide(url);
        if (!decision.allowed) return refused({ reason: 'blocked_robots', rule: decision.rule ?? null });
      }
      queueKey = await options.queueKeyOf(url);
    } catch (error) {
      return refused({ reason: 'unreachable', error });
    }
    const delaySeconds = Math.max(robots?.crawlDelaySeconds ?? 0, robots?.requestIntervalSeconds ?? 0);
    const delayMs = Math.min(delaySeconds * 1000, options.maxCrawlDelayMs);
    const site = options.budgets.siteOf(url);
    const network = await options.egress.of(address);
    // From here to the queue's acquire nothing awaits: admission and taking a place in the queue are one step.
    const held = options.holds.heldFor(site);
    if (held)
      return refused({
        reason: held.reason === 'block' ? 'site_blocked' : 'site_budget',
        site,
        retryAfterMs: held.remainingMs,
      });
    if (turn.admit !== false) {
      const admission = options.gate.admit(queueKey, delayMs, { front: turn.front, maxWaitMs: turn.maxWaitMs });
      if (!admission.admitted) return refused({ reason: 'queue_full', queueKey, retryAfterMs: admission.retryAfterMs });
    }
    const kind = turn.kind ?? 'page';
    try {
      const permit = await options.gate.acquire(queueKey, delayMs, turn.signal, {
        front: turn.front,
        maxWaitMs: turn.maxWaitMs,
        site: {
          site,
          budget: options.budgets.budgetFor(url, turn.jobId ?? '', robots),
          kind,
          network,
        },
      });
      const request = new PoliteRequest(
        permit,
        kind === 'page' ? { site, url: url.href, blocks: options.blocks } : null,
      );
      return { kind: 'go', queueKey, site, request, sitemaps };
    } catch (error) {
      if (!(error instanceof QueueDeferredError)) throw error;
      // Other fetchers took the queue's slots for longer than this request may wait, or the site's budget or block says wait.
      if (error.reason === 'spacing')
        return refused({ reason: 'queue_full', queueKey, retryAfterMs: error.retryAfterMs });
      options.holds.hold(site, error.retryAfterMs, error.reason === 'block' ? 'block' : 'budget');
      return refused({
        reason: error.reason === 'block' ? 'site_blocked' : 'site_budget',
        site,
        retryAfterMs: error.retryAfterMs,
      });
    }
  }
}

/** A request that had its turn: how it ended decides when its queue may go again, and whether its site blocks us. */
export class PoliteRequest {
  private readonly started = performance.now();

  constructor(
    private readonly permit: Permit,
    /** Set for pages: their answers are watched for signs of a block. */
    private readonly page: { site: string; url: string; blocks: SiteBlocks } | null,
  ) {}

  /** The site answered with this status (any, redirects included); for a page, whether the answer shows a block. */
  answered(status: number, headers: Record<string, string>, body: Buffer = Buffer.alloc(0)): BlockVerdict | null {
    const durationMs = performance.now() - this.started;
    this.permit.release(
      BUSY.has(status)
        ? { signal: 'busy', durationMs, retryAfterMs: parseRetryAfter(headers['retry-after']) }
        : { signal: 'answered', durationMs },
    );
    const { page, permit } = this;
    return page
      ? page.blocks.observe(page.site, { url: page.url, status, headers, body }, permit.probe, permit.blockStreak)
      : null;
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
