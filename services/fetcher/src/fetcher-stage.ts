import {
  canonicalUrl,
  encodeBody,
  errorCode,
  errorMessage,
  Schemas,
  statusEmission,
  Topics,
  linkRecordId,
} from '@crawler/core';
import type { BodyEncoding, Emission, FetchResult, FrontierRequest, Logger, Outlinks, Stage } from '@crawler/core';
import {
  fetchUrl,
  type FetchUrlDeps,
  type FetchUrlOutcome,
  type RedirectResponse,
  type StatusOutcome,
} from './fetch-url.js';
import { mediaType } from './content-type.js';
import { FetcherMetrics, outcomeClass } from './fetcher-metrics.js';
import { afterRender, plainPageOf, scriptFetchesEmission } from './render/render-emissions.js';
import type { Renderer } from './render/renderer.js';

export interface FetcherStageOptions {
  deps: FetchUrlDeps;
  bodyCompression: BodyEncoding;
  /** On stop: `handBack` returns URLs still waiting for their queue, `abort` cuts requests in flight. */
  signals?: { handBack: AbortSignal; abort: AbortSignal };
  metrics?: FetcherMetrics;
  /** Renders the pages that need it; null or absent: no page is rendered. */
  renderer?: Renderer | null;
  now?: () => number;
  /** Where a body cut at the size cap is reported. */
  logger?: Logger;
}

/**
 * crawl.frontier -> crawl.fetched (pages with a body), crawl.status (everything else) and
 * crawl.links (Sitemap lines of a robots.txt read for the first time, for the scheduler).
 * A page reached through same-queue redirects is published under its final URL, and the
 * requested URL gets a `redirect` status saying the target was already fetched. Every redirect
 * followed (inline or handed to the scheduler) goes to crawl.fetched too, as a response of its own
 * with its 3xx status, so that it is archived (redirect-capture.ts in core).
 */
export function createFetcherStage(options: FetcherStageOptions): Stage<FrontierRequest> & { metrics: FetcherMetrics } {
  const now = options.now ?? Date.now;
  const metrics = options.metrics ?? new FetcherMetrics();

  return {
    name: 'fetcher',
    input: { topic: Topics.frontier, schema: Schemas.FrontierRequest },
    outputs: [Topics.fetched, Topics.status, Topics.links],
    metrics,

    async handle(request) {
      const started = performance.now();
      const fetched = await fetchUrl(options.deps, request, options.signals);
      const plain = fetched.kind === 'page' && options.renderer ? plainPageOf(request, fetched) : null;
      const rendered = plain ? await options.renderer!.process(plain, options.signals?.abort) : null;
      const result = afterRender(fetched, rendered);
      const emissions =
        result.kind === 'status'
          ? [fetchStatusEmission(request, result, now(), rendered?.meta)]
          : pageEmissions(request, result, rendered?.meta);
      if (result.kind === 'page' && result.truncated)
        options.logger?.warn(
          {
            url: result.finalUrl,
            kept: result.body.length,
            contentLength: result.headers['content-length'] ?? null,
            maxBodyBytes: options.deps.maxBodyBytes,
          },
          'body truncated at FETCHER_MAX_BODY_BYTES: kept and flagged; links past the cut are not seen',
        );
      metrics.countOutcome(
        result.kind === 'status' ? outcomeClass(result) : result.truncated ? 'truncated' : 'ok',
        performance.now() - started,
        fetched.kind === 'page' ? fetched.wireBytes : 0,
      );
      for (const redirect of fetched.redirects)
        emissions.push(redirectEmission(request, redirect, now(), options.bodyCompression));
      if (fetched.sitemaps) emissions.push(sitemapEmission(request, fetched.sitemaps, now()));
      if (plain && rendered && rendered.kind !== 'unrendered' && rendered.pageLinks.length > 0)
        emissions.push(scriptFetchesEmission(request, plain.url, rendered.pageLinks, now()));
      return emissions;
    },

    onGiveUp(request, error) {
      metrics.countOutcome('processing_failed', 0);
      return [
        statusEmission(request, {
          outcome: 'processing_failed',
          fetchedAt: now(),
          attempt: request.attempt,
          retriable: true,
          errorCode: errorCode(error),
          errorMessage: errorMessage(error).slice(0, 500),
          meta: request.meta,
        }),
      ];
    },
  };

  function pageEmissions(
    request: FrontierRequest,
    result: Extract<FetchUrlOutcome, { kind: 'page' }>,
    extraMeta?: Record<string, string>,
  ): Emission[] {
    const redirected = result.finalUrl !== request.url;
    const body = encodeBody(result.body, options.bodyCompression);
    // Spelled out rather than spread from the request: the spread builds a slow dictionary-mode object per page.
    const fetched: FetchResult = {
      url: result.finalUrl,
      urlId: redirected ? linkRecordId(request.jobId, result.finalUrl) : request.urlId,
      host: redirected ? new URL(result.finalUrl).host : request.host,
      queueKey: request.queueKey,
      depth: request.depth,
      jobId: request.jobId,
      traceId: request.traceId,
      attempt: request.attempt,
      finalUrl: result.finalUrl,
      httpStatus: result.httpStatus,
      contentType: result.contentType,
      charset: result.charset,
      charsetSource: result.charsetSource,
      headers: result.headers,
      requestHeaders: result.requestHeaders,
      fetchedAt: now(),
      durationMs: result.durationMs,
      etag: result.headers.etag ?? null,
      lastModified: result.headers['last-modified'] ?? null,
      hops: result.hops,
      body,
      bodyEncoding: options.bodyCompression,
      bodyLength: result.body.length,
      truncated: result.truncated,
      previousDigest: redirected ? null : request.previousDigest,
      meta:
        result.sniffed || extraMeta
          ? { ...request.meta, ...(result.sniffed ? { contentTypeSniffed: 'true' } : {}), ...extraMeta }
          : request.meta,
    };
    const emissions: Emission[] = [
      { topic: Topics.fetched, schema: Schemas.FetchResult, key: request.queueKey, value: fetched },
    ];
    if (redirected) {
      const first = result.hops[0]!;
      emissions.push(
        fetchStatusEmission(
          request,
          {
            kind: 'status',
            outcome: 'redirect',
            httpStatus: first.status,
            retriable: false,
            redirectTo: result.finalUrl,
            hops: result.hops,
            redirects: result.redirects,
            durationMs: result.durationMs,
          },
          now(),
          { followed: 'true' },
        ),
      );
    }
    return emissions;
  }
}

/** A redirect followed, as crawl.fetched carries it for the archive: its own URL, status, headers and body. */
function redirectEmission(
  request: FrontierRequest,
  redirect: RedirectResponse,
  fetchedAt: number,
  bodyCompression: BodyEncoding,
): Emission {
  const value: FetchResult = {
    url: redirect.url,
    urlId: linkRecordId(request.jobId, redirect.url),
    host: new URL(redirect.url).host,
    queueKey: request.queueKey,
    depth: request.depth,
    jobId: request.jobId,
    traceId: request.traceId,
    attempt: request.attempt,
    finalUrl: redirect.url,
    httpStatus: redirect.status,
    contentType: mediaType(redirect.headers['content-type']),
    charset: null,
    charsetSource: null,
    headers: redirect.headers,
    requestHeaders: redirect.requestHeaders,
    fetchedAt,
    durationMs: redirect.durationMs,
    etag: redirect.headers.etag ?? null,
    lastModified: redirect.headers['last-modified'] ?? null,
    hops: [{ url: redirect.url, status: redirect.status, location: redirect.headers.location ?? null }],
    body: encodeBody(redirect.body, bodyCompression),
    bodyEncoding: bodyCompression,
    bodyLength: redirect.body.length,
    truncated: redirect.truncated,
    previousDigest: null,
    meta: request.meta,
  };
  return { topic: Topics.fetched, schema: Schemas.FetchResult, key: request.queueKey, value };
}

/** The status of a fetch that published no page under the request's URL: its outcome as the fetcher saw it. */
function fetchStatusEmission(
  request: FrontierRequest,
  result: StatusOutcome,
  fetchedAt: number,
  meta: Record<string, string> = {},
): Emission {
  return statusEmission(request, {
    outcome: result.outcome,
    httpStatus: result.httpStatus,
    fetchedAt,
    attempt: request.attempt,
    redirectTo: result.redirectTo,
    etag: result.etag,
    lastModified: result.lastModified,
    retryAfterMs: result.retryAfterMs,
    errorCode: result.errorCode,
    errorMessage: result.errorMessage,
    retriable: result.retriable,
    meta: { ...request.meta, ...meta },
  });
}

/** A robots.txt's Sitemap lines, canonical and once each, as links one hop from the site's root; the scheduler scopes them. */
function sitemapEmission(
  request: FrontierRequest,
  sitemaps: { robotsUrl: string; urls: string[] },
  discoveredAt: number,
): Emission {
  const value: Outlinks = {
    kind: 'robots',
    sourceUrl: sitemaps.robotsUrl,
    sourceUrlId: linkRecordId(request.jobId, sitemaps.robotsUrl),
    jobId: request.jobId,
    traceId: request.traceId,
    depth: 1,
    discoveredAt,
    links: [...new Set(sitemaps.urls.map((url) => canonicalUrl(url)))].flatMap((canonical) =>
      canonical
        ? [{ url: canonical, anchor: null, rel: 'sitemap', source: 'sitemap', lastmod: null, changefreq: null }]
        : [],
    ),
  };
  return { topic: Topics.links, schema: Schemas.Outlinks, key: new URL(sitemaps.robotsUrl).host, value };
}
