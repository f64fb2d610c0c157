import { canonicalize, hostQueueKey, type Hop, type Outcome } from '@crawler/core';
import { mediaType, sniffMediaType } from './content-type.js';
import { sniffCharset } from './charset-sniff.js';
import type { HttpClient } from './http-client.js';
import { outcomeOfError, outcomeOfStatus } from './outcome.js';
import type { PolitenessGate } from './politeness-gate.js';
import type { RobotsCache } from './robots/robots-cache.js';

export interface FetchUrlDeps {
  client: HttpClient;
  gate: PolitenessGate;
  robots: RobotsCache | null;
  contentTypes: ReadonlySet<string>;
  maxBodyBytes: number;
  maxRedirects: number;
  maxCrawlDelayMs: number;
  maxRetryAfterMs: number;
  totalTimeoutMs: number;
}

export interface FetchUrlRequest {
  url: string;
  queueKey: string;
  etag: string | null;
  lastModified: string | null;
}

export interface PageOutcome {
  kind: 'page';
  finalUrl: string;
  httpStatus: number;
  headers: Record<string, string>;
  body: Buffer;
  truncated: boolean;
  contentType: string | null;
  charset: string | null;
  charsetSource: string | null;
  hops: Hop[];
  durationMs: number;
}

export interface StatusOutcome {
  kind: 'status';
  outcome: Outcome;
  httpStatus: number | null;
  retriable: boolean;
  hops: Hop[];
  durationMs: number;
  redirectTo?: string;
  retryAfterMs?: number;
  errorCode?: string;
  errorMessage?: string;
  etag?: string | null;
  lastModified?: string | null;
}

export type FetchUrlOutcome = PageOutcome | StatusOutcome;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const GENERIC_TYPES = new Set(['application/octet-stream', 'text/plain', 'binary/octet-stream', 'application/unknown']);

/**
 * Fetches one URL. By default a redirect ends here and is handed to the scheduler, which fetches
 * each target once. With maxRedirects > 0, same-host redirects are followed inline, hop by hop:
 * every hop is robots-checked, waits for its host's politeness slot and is recorded, and loops
 * are detected. A redirect to another host is always handed over, so that host's own fetcher,
 * with its own politeness, fetches it. Never throws: failures are outcomes.
 */
export async function fetchUrl(deps: FetchUrlDeps, request: FetchUrlRequest, stopSignal?: AbortSignal): Promise<FetchUrlOutcome> {
  const started = performance.now();
  const hops: Hop[] = [];
  const elapsed = () => Math.round(performance.now() - started);
  const status = (outcome: Omit<StatusOutcome, 'kind' | 'hops' | 'durationMs'>): StatusOutcome => ({ kind: 'status', hops, durationMs: elapsed(), ...outcome });
  // The deadline starts with the first request, not while the URL waits for its host's turn.
  let deadline: AbortSignal | null = null;
  let signal: AbortSignal | null = null;

  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return status({ outcome: 'invalid_url', httpStatus: null, retriable: false, errorCode: 'ERR_INVALID_URL', errorMessage: `not a URL: ${request.url.slice(0, 200)}` });
  }
  const visited = new Set<string>();
  let conditional: Record<string, string> = {};
  if (request.etag) conditional['if-none-match'] = request.etag;
  if (request.lastModified) conditional['if-modified-since'] = request.lastModified;

  for (;;) {
    visited.add(url.href);
    let delayMs = 0;
    if (deps.robots) {
      let policy;
      try {
        policy = await deps.robots.policyFor(url);
      } catch (error) {
        return errorStatus(error);
      }
      if (policy.failure) {
        const classified = policy.failure.httpStatus !== null ? outcomeOfStatus(policy.failure.httpStatus) : outcomeOfError(policy.failure.error);
        return status({ outcome: classified.outcome, httpStatus: policy.failure.httpStatus, retriable: true, errorCode: 'ROBOTS_UNAVAILABLE', errorMessage: `robots.txt of ${url.origin} unavailable (${policy.failure.httpStatus ?? classified.outcome}); the site is not crawled until it answers` });
      }
      if (!policy.isAllowed(url)) return status({ outcome: 'blocked_robots', httpStatus: null, retriable: false, errorCode: 'ROBOTS_DISALLOWED', errorMessage: `robots.txt disallows ${url.pathname}` });
      if (policy.crawlDelaySeconds !== null) delayMs = Math.min(policy.crawlDelaySeconds * 1000, deps.maxCrawlDelayMs);
    }

    const permit = await deps.gate.acquire(request.queueKey, delayMs);
    if (!deadline) {
      deadline = AbortSignal.timeout(deps.totalTimeoutMs);
      signal = stopSignal ? AbortSignal.any([deadline, stopSignal]) : deadline;
    }
    let response;
    try {
      response = await deps.client.get({
        url,
        headers: conditional,
        signal: signal!,
        maxBodyBytes: deps.maxBodyBytes,
        wantBody: (code, headers) => code >= 200 && code < 300 && isWanted(mediaType(headers['content-type']), deps.contentTypes),
      });
    } catch (error) {
      permit.release();
      if (deadline.aborted) return status({ outcome: 'timeout', httpStatus: null, retriable: true, errorCode: 'FETCH_DEADLINE', errorMessage: `no complete answer within ${deps.totalTimeoutMs} ms` });
      return errorStatus(error);
    }
    const retryAfterMs = parseRetryAfter(response.headers['retry-after']);
    const busy = response.status === 429 || response.status === 503;
    permit.release({ holdMs: busy ? Math.min(retryAfterMs ?? 0, deps.maxRetryAfterMs) : 0 });

    const location = response.headers.location;
    const target = location && REDIRECTS.has(response.status) ? canonicalize(location, url) : null;
    hops.push({ url: url.href, status: response.status, location: target?.ok ? target.url : (location ?? null) });
    if (REDIRECTS.has(response.status) && location) {
      if (!target?.ok) return status({ outcome: 'invalid_url', httpStatus: response.status, retriable: false, errorCode: 'REDIRECT_INVALID', errorMessage: `redirect to an unusable location: ${location.slice(0, 200)}` });
      if (visited.has(target.url)) return status({ outcome: 'redirect_loop', httpStatus: response.status, retriable: false, errorCode: 'REDIRECT_LOOP', errorMessage: `redirect loop back to ${target.url}` });
      // Past the inline budget, or to another host: the scheduler takes over (it bounds the whole chain).
      if (hops.length > deps.maxRedirects || hostQueueKey(target.parsed) !== request.queueKey) return status({ outcome: 'redirect', httpStatus: response.status, retriable: false, redirectTo: target.url });
      url = target.parsed;
      conditional = {};
      continue;
    }

    const { outcome, retriable } = outcomeOfStatus(response.status);
    if (outcome !== 'ok') {
      return status({
        outcome,
        httpStatus: response.status,
        retriable,
        ...(retryAfterMs !== null ? { retryAfterMs } : {}),
        etag: response.headers.etag ?? null,
        lastModified: response.headers['last-modified'] ?? null,
      });
    }
    const declared = mediaType(response.headers['content-type']);
    const sniffed = !declared || GENERIC_TYPES.has(declared) ? sniffMediaType(response.body) : null;
    const type = sniffed ?? declared;
    if (!type || !deps.contentTypes.has(type)) {
      return status({ outcome: 'unsupported_type', httpStatus: response.status, retriable: false, errorCode: 'CONTENT_TYPE_REFUSED', errorMessage: `content type ${type ?? 'unknown'} is not in FETCHER_CONTENT_TYPES` });
    }
    const charset = type.startsWith('text/') || type.includes('xml') ? sniffCharset(response.body, response.headers['content-type']) : null;
    return {
      kind: 'page',
      finalUrl: url.href,
      httpStatus: response.status,
      headers: response.headers,
      body: response.body,
      truncated: response.truncated,
      contentType: type,
      charset: charset?.charset ?? null,
      charsetSource: charset?.source ?? null,
      hops,
      durationMs: elapsed(),
    };
  }

  function errorStatus(error: unknown): StatusOutcome {
    const classified = outcomeOfError(error);
    return status({ outcome: classified.outcome, httpStatus: null, retriable: classified.retriable, errorCode: classified.code, errorMessage: ((error as Error).message ?? String(error)).slice(0, 500) });
  }
}

/** Missing and generic types are downloaded so their bytes can tell what they are. */
function isWanted(type: string | null, allowed: ReadonlySet<string>): boolean {
  return type === null || allowed.has(type) || GENERIC_TYPES.has(type);
}

/** Retry-After as delay-seconds or an HTTP-date, in milliseconds. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
