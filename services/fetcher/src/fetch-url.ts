import {
  canonicalize,
  failSpan,
  isRedirectStatus,
  startCallSpan,
  type Hop,
  type Outcome,
  ErrorCode,
} from '@crawler/core';
import { ACCEPT_ENCODING } from './body-reader.js';
import { chooseCharset, type CharsetSource } from './charset/choose-charset.js';
import { effectiveMediaType, GENERIC_TYPES, isTruncatable, mediaType } from './content-type.js';
import type { ContentTypeList } from './content-type-list.js';
import type { CookieJars } from './cookie-jars.js';
import type { HttpClient, HopResponse } from './http-client.js';
import { Deadline } from './deadline.js';
import { outcomeOfError, outcomeOfStatus } from './outcome.js';
import { GateClosedError } from './politeness/politeness-gate.js';
import type { BlockSignal } from './blocks/site-blocks.js';
import { parseRetryAfter, type PoliteRequests, type Refusal } from './politeness/polite-request.js';

export interface FetchUrlDeps {
  client: HttpClient;
  /** Address policy, robots.txt and the politeness queue: shared with rendering and frames. */
  polite: PoliteRequests;
  cookies: CookieJars | null;
  contentTypes: ContentTypeList;
  maxBodyBytes: number;
  maxRedirects: number;
  totalTimeoutMs: number;
}

export interface FetchUrlRequest {
  url: string;
  jobId: string;
  etag: string | null;
  lastModified: string | null;
  /**
   * A document a page being processed waits for (a frame): it goes ahead of its queue's waiting
   * URLs, still spaced like any request, and a full queue does not refuse it.
   */
  front?: boolean;
}

/** A redirect this fetch followed inline or handed to the scheduler, as served: archived as a response of its own. */
export interface RedirectResponse {
  url: string;
  status: number;
  headers: Record<string, string>;
  requestHeaders: Record<string, string>;
  body: Buffer;
  truncated: boolean;
  durationMs: number;
}

interface Common {
  hops: Hop[];
  /** The redirects followed on the way, in order; a loop's last hop and an unusable Location are not followed. */
  redirects: RedirectResponse[];
  durationMs: number;
  /** Sitemap lines of a robots.txt this fetch was the first to read, for the scheduler. */
  sitemaps?: { robotsUrl: string; urls: string[] };
}

export interface PageOutcome extends Common {
  kind: 'page';
  finalUrl: string;
  httpStatus: number;
  headers: Record<string, string>;
  /** The headers the final request was sent with. */
  requestHeaders: Record<string, string>;
  body: Buffer;
  truncated: boolean;
  contentType: string;
  /** True when the bytes, not the Content-Type header, said what the body is. */
  sniffed: boolean;
  charset: string | null;
  /** 'rendered': the body is a browser's DOM, serialized as UTF-8. */
  charsetSource: CharsetSource | 'rendered' | null;
  wireBytes: number;
  timings: HopResponse['timings'];
}

export interface StatusOutcome extends Common {
  kind: 'status';
  outcome: Outcome;
  httpStatus: number | null;
  retriable: boolean;
  redirectTo?: string;
  retryAfterMs?: number;
  errorCode?: string;
  errorMessage?: string;
  etag?: string | null;
  lastModified?: string | null;
  headers?: Record<string, string>;
}

export type FetchUrlOutcome = PageOutcome | StatusOutcome;

/** Statuses whose body is read although it is not kept: a challenge page may come with them. */
const BLOCKING = new Set([401, 403, 429, 503]);
const BLOCK_SIGNS = {
  challenge: 'a challenge page',
  captcha: 'a CAPTCHA',
  denials: 'a burst of 403/429',
  collapse: 'one tiny page for every URL',
};
const BLOCK_CODES: Record<BlockSignal, ErrorCode> = {
  challenge: ErrorCode.SITE_CHALLENGE,
  captcha: ErrorCode.SITE_CAPTCHA,
  denials: ErrorCode.SITE_DENIALS,
  collapse: ErrorCode.SITE_COLLAPSE,
};

/**
 * Fetches one URL. Never throws for the URL's sake: failures are outcomes. It throws
 * GateClosedError only when the fetcher stops (`signals`), so the URL is handed back uncommitted.
 *
 * By default a redirect ends here and is handed to the scheduler, which fetches each target once.
 * With maxRedirects > 0, redirects within the politeness queue are followed inline, hop by hop:
 * every hop is robots-checked, address-checked, waits for its queue's turn and is recorded, and
 * loops are detected. A redirect to another queue is always handed over, so the fetcher that owns
 * that queue fetches it with its own politeness.
 */
export async function fetchUrl(
  deps: FetchUrlDeps,
  request: FetchUrlRequest,
  signals?: { handBack: AbortSignal; abort: AbortSignal },
): Promise<FetchUrlOutcome> {
  // The deadline starts with the first request, not while the URL waits for its queue's turn.
  const deadline: { current: Deadline | null } = { current: null };
  try {
    return await fetchHops(deps, request, deadline, signals);
  } finally {
    deadline.current?.clear();
  }
}

async function fetchHops(
  deps: FetchUrlDeps,
  request: FetchUrlRequest,
  deadline: { current: Deadline | null },
  signals?: { handBack: AbortSignal; abort: AbortSignal },
): Promise<FetchUrlOutcome> {
  const started = performance.now();
  const hops: Hop[] = [];
  const redirects: RedirectResponse[] = [];
  let sitemaps: Common['sitemaps'];
  const status = (outcome: Omit<StatusOutcome, 'kind' | 'hops' | 'redirects' | 'durationMs'>): StatusOutcome => ({
    kind: 'status',
    hops,
    redirects,
    durationMs: elapsed(),
    ...(sitemaps ? { sitemaps } : {}),
    ...outcome,
  });
  const elapsed = () => Math.round(performance.now() - started);

  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return status({
      outcome: 'invalid_url',
      httpStatus: null,
      retriable: false,
      errorCode: ErrorCode.ERR_INVALID_URL,
      errorMessage: `not a URL: ${request.url.slice(0, 200)}`,
    });
  }
  const visited = new Set<string>();
  let conditional: Record<string, string> = {};
  if (request.etag) conditional['if-none-match'] = request.etag;
  if (request.lastModified) conditional['if-modified-since'] = request.lastModified;

  for (;;) {
    visited.add(url.href);
    const turn = await deps.polite.take(url, {
      front: request.front,
      admit: hops.length === 0,
      signal: signals?.handBack,
      jobId: request.jobId,
      kind: 'page',
    });
    if (turn.sitemaps) sitemaps = { robotsUrl: new URL('/robots.txt', url).href, urls: turn.sitemaps };
    if (turn.kind === 'refused') return refusalStatus(turn.refusal, url);
    const { queueKey, request: polite } = turn;
    deadline.current ??= new Deadline(deps.totalTimeoutMs, signals?.abort);
    const { signal } = deadline.current;
    const jarHeader = deps.cookies ? await deps.cookies.header(request.jobId, url) : null;
    // One span per HTTP request, a child of the fetcher's span for the URL: the hops of a redirect chain followed inline.
    const hopSpan = startCallSpan('GET', {
      'url.full': url.href,
      'http.request.method': 'GET',
      'crawler.hop': hops.length,
    });
    const hopStarted = performance.now();
    let response: HopResponse;
    try {
      response = await deps.client.get({
        url,
        headers: jarHeader ? { ...conditional, cookie: jarHeader } : conditional,
        signal,
        maxBodyBytes: deps.maxBodyBytes,
        // Refusals are read too: a challenge page often comes with 403, 429 or 503. A redirect's
        // short body is kept with it in the archive.
        wantBody: (code, headers) =>
          (code >= 200 && code < 300 && wantsBody(deps, headers)) || BLOCKING.has(code) || isRedirectStatus(code),
      });
    } catch (error) {
      failSpan(hopSpan, error).end();
      if (signals?.abort.aborted) {
        polite.abandoned();
        throw new GateClosedError();
      }
      const timedOut = deadline.current.expired;
      polite.failed(error, { timedOut });
      return timedOut
        ? status({
            outcome: 'timeout',
            httpStatus: null,
            retriable: true,
            errorCode: ErrorCode.FETCH_DEADLINE,
            errorMessage: `no complete answer within ${deps.totalTimeoutMs} ms`,
          })
        : errorStatus(error);
    }
    hopSpan.setAttribute('http.response.status_code', response.status).end();
    const retryAfterMs = parseRetryAfter(response.headers['retry-after']);
    const block = polite.answered(response.status, response.headers, response.body);
    if (block) {
      hops.push({ url: url.href, status: response.status, location: null });
      return status({
        outcome: 'blocked_by_site',
        httpStatus: response.status,
        retriable: true,
        retryAfterMs: block.blockedForMs,
        errorCode: BLOCK_CODES[block.signal],
        errorMessage: `${turn.site} answers with ${BLOCK_SIGNS[block.signal]}: it blocks this crawler; left alone for ${Math.round(block.blockedForMs / 1000)} s (block ${block.streak} in a row), then probed once`,
        headers: response.headers,
      });
    }
    await deps.cookies?.remember(request.jobId, url, response.headers['set-cookie']);

    const location = response.headers.location;
    const target = location && isRedirectStatus(response.status) ? canonicalize(location, url) : null;
    hops.push({ url: url.href, status: response.status, location: target?.ok ? target.url : (location ?? null) });
    if (isRedirectStatus(response.status) && location) {
      if (!target?.ok)
        return status({
          outcome: 'invalid_url',
          httpStatus: response.status,
          retriable: false,
          errorCode: ErrorCode.REDIRECT_INVALID,
          errorMessage: `redirect to an unusable location: ${location.slice(0, 200)}`,
        });
      if (visited.has(target.url))
        return status({
          outcome: 'redirect_loop',
          httpStatus: response.status,
          retriable: false,
          errorCode: ErrorCode.REDIRECT_LOOP,
          errorMessage: `redirect loop back to ${target.url}`,
        });
      redirects.push({
        url: url.href,
        status: response.status,
        headers: response.headers,
        requestHeaders: response.requestHeaders,
        body: response.body,
        truncated: response.truncated,
        durationMs: Math.round(performance.now() - hopStarted),
      });
      // Past the inline budget, or to another queue: the scheduler takes over (it bounds the whole chain).
      let targetQueue: string | null = null;
      if (hops.length <= deps.maxRedirects) targetQueue = await deps.polite.queueKeyOf(target.parsed).catch(() => null);
      if (targetQueue !== queueKey)
        return status({
          outcome: 'redirect',
          httpStatus: response.status,
          retriable: false,
          redirectTo: target.url,
          headers: response.headers,
        });
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
        ...(outcome === 'client_error' && isRedirectStatus(response.status)
          ? { errorCode: ErrorCode.REDIRECT_WITHOUT_LOCATION }
          : {}),
        etag: response.headers.etag ?? null,
        lastModified: response.headers['last-modified'] ?? null,
        headers: response.headers,
      });
    }
    if (response.undecodedEncoding !== undefined)
      return status({
        outcome: 'unsupported_type',
        httpStatus: response.status,
        retriable: false,
        errorCode: ErrorCode.CONTENT_ENCODING_UNSUPPORTED,
        errorMessage: `Content-Encoding ${response.undecodedEncoding} was not asked for (Accept-Encoding: ${ACCEPT_ENCODING}) and cannot be decoded; the encoded bytes are not kept as the page`,
        headers: response.headers,
      });
    const declared = mediaType(response.headers['content-type']);
    const { type, sniffed } = effectiveMediaType(declared, response.body);
    if (!type || !deps.contentTypes.allows(type)) {
      return status({
        outcome: 'unsupported_type',
        httpStatus: response.status,
        retriable: false,
        errorCode: ErrorCode.CONTENT_TYPE_REFUSED,
        errorMessage: `content type ${type ?? 'unknown'}${sniffed ? ` (sniffed; the header said ${declared ?? 'nothing'})` : ''} is not in FETCHER_CONTENT_TYPES`,
        headers: response.headers,
      });
    }
    const declaredLength = Number(response.headers['content-length']);
    if (!isTruncatable(type) && (response.truncated || declaredLength > deps.maxBodyBytes)) {
      return status({
        outcome: 'too_large',
        httpStatus: response.status,
        retriable: false,
        errorCode: ErrorCode.BODY_TOO_LARGE,
        errorMessage: `${type} body over ${deps.maxBodyBytes} bytes; a cut ${type} is useless, so it is not kept`,
        headers: response.headers,
      });
    }
    const charset = isTruncatable(type) ? chooseCharset(response.body, response.headers['content-type']) : null;
    return {
      kind: 'page',
      finalUrl: url.href,
      httpStatus: response.status,
      headers: response.headers,
      requestHeaders: response.requestHeaders,
      body: response.body,
      truncated: response.truncated,
      contentType: type,
      sniffed,
      charset: charset?.charset ?? null,
      charsetSource: charset?.source ?? null,
      wireBytes: response.wireBytes,
      timings: response.timings,
      hops,
      redirects,
      durationMs: elapsed(),
      ...(sitemaps ? { sitemaps } : {}),
    };
  }

  function refusalStatus(refusal: Refusal, url: URL): StatusOutcome {
    switch (refusal.reason) {
      case 'unreachable':
        return errorStatus(refusal.error);
      case 'robots_unavailable': {
        const { failure } = refusal;
        const classified =
          failure.httpStatus !== null ? outcomeOfStatus(failure.httpStatus) : outcomeOfError(failure.error);
        return status({
          outcome: classified.outcome,
          httpStatus: failure.httpStatus,
          retriable: classified.retriable,
          errorCode: ErrorCode.ROBOTS_UNAVAILABLE,
          errorMessage: `robots.txt of ${url.origin} unavailable (${failure.httpStatus ?? outcomeOfError(failure.error).code}); the site is not crawled until it answers`,
        });
      }
      case 'blocked_robots':
        return status({
          outcome: 'blocked_robots',
          httpStatus: null,
          retriable: false,
          errorCode: ErrorCode.ROBOTS_DISALLOWED,
          errorMessage: `robots.txt disallows ${url.pathname} (line ${refusal.rule?.line}: ${refusal.rule?.pattern})`,
        });
      case 'site_blocked':
        return status({
          outcome: 'blocked_by_site',
          httpStatus: null,
          retriable: true,
          retryAfterMs: refusal.retryAfterMs,
          errorCode: ErrorCode.SITE_BLOCKED,
          errorMessage: `${refusal.site} blocks this crawler; not asked again for ${Math.round(refusal.retryAfterMs / 1000)} s`,
        });
      case 'site_budget':
        return status({
          outcome: 'throttled',
          httpStatus: null,
          retriable: true,
          retryAfterMs: refusal.retryAfterMs,
          errorCode: ErrorCode.SITE_BUDGET_SPENT,
          errorMessage: `the crawler's budget for ${refusal.site} is spent for the next ${Math.round(refusal.retryAfterMs / 1000)} s`,
        });
      case 'queue_full':
        return status({
          outcome: 'throttled',
          httpStatus: null,
          retriable: true,
          retryAfterMs: refusal.retryAfterMs,
          errorCode: ErrorCode.FETCHER_QUEUE_FULL,
          errorMessage: `politeness queue ${refusal.queueKey} is full; try again in ${Math.round(refusal.retryAfterMs / 1000)} s`,
        });
    }
  }

  function errorStatus(error: unknown): StatusOutcome {
    const classified = outcomeOfError(error);
    return status({
      outcome: classified.outcome,
      httpStatus: null,
      retriable: classified.retriable,
      errorCode: classified.code,
      errorMessage: ((error as Error).message ?? String(error)).slice(0, 500),
    });
  }
}

/**
 * Whether a 2xx body is worth downloading, from the headers alone. Missing and generic types are
 * downloaded so their bytes can tell what they are; a type that cannot be cut (PDF, images) and
 * announces more than the cap is not downloaded at all.
 */
function wantsBody(deps: FetchUrlDeps, headers: Record<string, string>): boolean {
  const type = mediaType(headers['content-type']);
  if (type === null || GENERIC_TYPES.has(type)) return true;
  if (!deps.contentTypes.allows(type)) return false;
  return isTruncatable(type) || !(Number(headers['content-length']) > deps.maxBodyBytes);
}
