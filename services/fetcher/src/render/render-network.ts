import type { BrowserContext, Page, Request, Route } from 'playwright-core';
import { effectivePort, type AddressPolicy } from '../address-policy.js';
import { Deadline } from '../deadline.js';
import type { HttpClient, HopResponse } from '../http-client.js';
import { parseRetryAfter } from '../fetch-url.js';
import { outcomeOfError } from '../outcome.js';
import { GateClosedError, type PolitenessGate } from '../politeness/politeness-gate.js';
import type { QueueKeyer } from '../politeness/queue-key.js';
import type { RobotsCache } from '../robots/robots-cache.js';
import { NetworkIdle } from './network-idle.js';
import type { SubresourceCache } from './subresource-cache.js';

export interface RenderNetworkDeps {
  client: HttpClient;
  policy: AddressPolicy;
  gate: PolitenessGate;
  queueKeyOf: QueueKeyer;
  robots: RobotsCache | null;
  cache: SubresourceCache;
  /** Chromium resource types refused outright (image, font, media by default). */
  blockTypes: ReadonlySet<string>;
  /** Sub-requests one page may make, cached ones included. */
  maxRequests: number;
  maxBodyBytes: number;
  maxCrawlDelayMs: number;
  /** Longest one sub-request may take. */
  requestTimeoutMs: number;
}

/** The plainly fetched answer: the browser's navigation is served from it, not fetched again. */
export interface RenderDocument {
  url: string;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface NetworkRecord {
  /** Sub-requests sent to sites, and those answered from the cache. */
  sent: number;
  cached: number;
  failed: number;
  /** Refused sub-requests by reason: type, method, scheme, budget, blocked_address, dns_failure, blocked_robots, robots_unavailable, websocket, popup. */
  refused: Map<string, number>;
  /** The first refusals (URL and reason), for the check command and tests. */
  refusals: { url: string; reason: string }[];
  /** Where a script sent the page (a main-frame navigation after the document), or null. */
  jsRedirect: string | null;
  /** URLs scripts fetched (XHR/fetch GET) that answered 2xx HTML: pages worth crawling. */
  pageLike: Set<string>;
}

const MAX_REFUSALS_LISTED = 50;
/** Request headers the browser may not choose: ours identify the crawler, and the client handles the connection and encodings. */
const NOT_FORWARDED =
  /^(?:host|connection|content-length|transfer-encoding|upgrade|keep-alive|te|trailer|proxy-.*|user-agent|accept-encoding|if-.*|sec-ch-ua.*)$/i;
/** Response headers that describe the bytes on the wire, which the client already decoded. */
const NOT_RETURNED = /^(?:content-encoding|content-length|transfer-encoding|connection|keep-alive)$/i;
const HTML = /^\s*(?:text\/html|application\/xhtml\+xml)/i;

/**
 * The only network a rendering page has. Every request of every frame is intercepted: the
 * document is served from the plain fetch; a later main-frame navigation is a script redirect,
 * recorded and answered 204 so the page stays; every other request passes the same checks as a
 * plain fetch (address policy before anything else, robots.txt, then the politeness gate of its
 * own host, ahead of that host's waiting URLs) and is fetched by the fetcher's HTTP client.
 * Images, fonts and media, non-GET methods, other schemes and WebSockets are refused.
 */
export class RenderNetwork {
  readonly idle = new NetworkIdle();
  readonly record: NetworkRecord = {
    sent: 0,
    cached: 0,
    failed: 0,
    refused: new Map(),
    refusals: [],
    jsRedirect: null,
    pageLike: new Set(),
  };
  private documentServed = false;
  private page: Page | null = null;
  private markMoved: () => void = () => undefined;
  /** Resolves when a script redirect is seen: the render can end there. */
  readonly moved = new Promise<void>((resolve) => {
    this.markMoved = resolve;
  });

  constructor(
    private readonly deps: RenderNetworkDeps,
    private readonly document: RenderDocument,
    /** Aborts when the page's time is up: waiting sub-requests give up. */
    private readonly signal: AbortSignal,
    /** A <meta http-equiv="refresh"> target of the document: following it is not a script redirect. */
    private readonly metaRefresh: string | null = null,
  ) {}

  async attach(context: BrowserContext, page: Page): Promise<void> {
    this.page = page;
    await context.route('**/*', (route) => this.handle(route).catch(() => undefined));
    await context.routeWebSocket(/.*/, (socket) => {
      this.refuse(socket.url(), 'websocket');
      socket.close({ code: 1008, reason: 'refused by the crawler' }).catch(() => undefined);
    });
  }

  private async handle(route: Route): Promise<void> {
    const request = route.request();
    if (request.isNavigationRequest() && request.frame().parentFrame() === null) return this.navigate(route, request);
    this.idle.begin();
    try {
      await this.subrequest(route, request);
    } finally {
      this.idle.end();
    }
  }

  private async navigate(route: Route, request: Request): Promise<void> {
    if (request.frame().page() !== this.page) return this.abort(route, request.url(), 'popup');
    if (!this.documentServed) {
      this.documentServed = true;
      return route.fulfill({
        status: this.document.status,
        headers: returnedHeaders(this.document.headers),
        body: this.document.body,
      });
    }
    const target = request.url();
    if (
      request.method() === 'GET' &&
      target !== this.document.url &&
      target !== this.metaRefresh &&
      this.record.jsRedirect === null
    ) {
      this.record.jsRedirect = target;
      this.markMoved();
    }
    // 204 No Content: the browser stays on the page, which keeps its DOM for the snapshot.
    return route.fulfill({ status: 204, body: '' });
  }

  private async subrequest(route: Route, request: Request): Promise<void> {
    const { deps, record } = this;
    const href = request.url();
    if (record.sent + record.cached >= deps.maxRequests) return this.abort(route, href, 'budget');
    if (request.method() !== 'GET') return this.abort(route, href, 'method');
    const type = request.resourceType();
    if (deps.blockTypes.has(type)) return this.abort(route, href, 'type');
    const url = new URL(href);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return this.abort(route, href, 'scheme');
    const cacheable = type === 'script' || type === 'stylesheet';
    const hit = cacheable ? deps.cache.get(url.href) : null;
    if (hit) {
      record.cached++;
      return route.fulfill({ status: hit.status, headers: hit.headers, body: hit.body });
    }
    let delayMs = 0;
    let queueKey: string;
    try {
      // The address first: an off-machine or private host gets no robots.txt request either.
      await deps.policy.resolve(url.hostname, effectivePort(url.protocol, url.port));
      if (deps.robots) {
        const { policy } = await deps.robots.lookup(url);
        if (policy.failure) return this.abort(route, href, 'robots_unavailable');
        if (!policy.decide(url).allowed) return this.abort(route, href, 'blocked_robots');
        if (policy.crawlDelaySeconds !== null)
          delayMs = Math.min(policy.crawlDelaySeconds * 1000, deps.maxCrawlDelayMs);
      }
      queueKey = await deps.queueKeyOf(url);
    } catch (error) {
      return this.abort(route, href, outcomeOfError(error).outcome);
    }
    let permit;
    try {
      permit = await deps.gate.acquire(queueKey, delayMs, this.signal, { front: true });
    } catch (error) {
      if (error instanceof GateClosedError) return route.abort('timedout');
      throw error;
    }
    const deadline = new Deadline(deps.requestTimeoutMs, this.signal);
    const started = performance.now();
    let response: HopResponse;
    try {
      response = await deps.client.get({
        url,
        headers: forwardedHeaders(request.headers()),
        signal: deadline.signal,
        maxBodyBytes: deps.maxBodyBytes,
        wantBody: () => true,
      });
    } catch (error) {
      const { outcome } = outcomeOfError(error);
      permit.release(
        outcome === 'timeout' || outcome === 'network_error'
          ? { signal: 'answered', durationMs: performance.now() - started }
          : undefined,
      );
      record.failed++;
      return route.abort('failed');
    } finally {
      deadline.clear();
    }
    const durationMs = performance.now() - started;
    permit.release(
      response.status === 429 || response.status === 503
        ? { signal: 'busy', durationMs, retryAfterMs: parseRetryAfter(response.headers['retry-after']) }
        : { signal: 'answered', durationMs },
    );
    record.sent++;
    const answer = { status: response.status, headers: returnedHeaders(response.headers), body: response.body };
    if (
      (type === 'xhr' || type === 'fetch') &&
      response.status >= 200 &&
      response.status < 300 &&
      HTML.test(response.headers['content-type'] ?? '')
    )
      record.pageLike.add(url.href);
    if (cacheable) deps.cache.put(url.href, answer);
    await route.fulfill(answer);
  }

  private abort(route: Route, url: string, reason: string): Promise<void> {
    this.refuse(url, reason);
    return route.abort('blockedbyclient');
  }

  private refuse(url: string, reason: string): void {
    this.record.refused.set(reason, (this.record.refused.get(reason) ?? 0) + 1);
    if (this.record.refusals.length < MAX_REFUSALS_LISTED) this.record.refusals.push({ url, reason });
  }
}

function forwardedHeaders(headers: Record<string, string>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (!NOT_FORWARDED.test(name)) kept[name] = value;
  return kept;
}

function returnedHeaders(headers: Record<string, string>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (!NOT_RETURNED.test(name)) kept[name] = value;
  return kept;
}
