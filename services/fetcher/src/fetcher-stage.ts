import { gzipSync } from 'node:zlib';
import { errorCode, errorMessage, Schemas, Topics, urlId } from '@crawler/core';
import type { Emission, FetchResult, FrontierRequest, Stage, StatusUpdate } from '@crawler/core';
import { fetchUrl, type FetchUrlDeps, type StatusOutcome } from './fetch-url.js';

export interface FetcherStageOptions {
  deps: FetchUrlDeps;
  bodyCompression: 'identity' | 'gzip';
  /** Aborts fetches in flight when the service stops. */
  stopSignal?: AbortSignal;
  now?: () => number;
}

/**
 * crawl.frontier -> crawl.fetched (pages with a body) and crawl.status (everything else).
 * A page reached through same-host redirects is published under its final URL, and the
 * requested URL gets a `redirect` status saying the target was already fetched.
 */
export function createFetcherStage(options: FetcherStageOptions): Stage<FrontierRequest> & { outcomes: Map<string, number> } {
  const now = options.now ?? Date.now;
  const outcomes = new Map<string, number>();
  const count = (outcome: string) => outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);

  return {
    name: 'fetcher',
    input: { topic: Topics.frontier, schema: Schemas.FrontierRequest },
    outputs: [Topics.fetched, Topics.status],
    outcomes,

    async handle(request) {
      const result = await fetchUrl(options.deps, request, options.stopSignal);
      if (result.kind === 'status') {
        count(result.outcome);
        return [statusEmission(request, result, now())];
      }
      count('ok');
      const emissions: Emission[] = [];
      const redirected = result.finalUrl !== request.url;
      const body = options.bodyCompression === 'gzip' ? gzipSync(result.body, { level: 1 }) : result.body;
      const fetched: FetchResult = {
        ...request,
        url: result.finalUrl,
        urlId: redirected ? urlId(result.finalUrl) : request.urlId,
        finalUrl: result.finalUrl,
        httpStatus: result.httpStatus,
        contentType: result.contentType,
        charset: result.charset,
        charsetSource: result.charsetSource,
        headers: result.headers,
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
        meta: request.meta,
      };
      emissions.push({ topic: Topics.fetched, schema: Schemas.FetchResult, key: request.queueKey, value: fetched });
      if (redirected) {
        const first = result.hops[0]!;
        emissions.push(
          statusEmission(request, { kind: 'status', outcome: 'redirect', httpStatus: first.status, retriable: false, redirectTo: result.finalUrl, hops: result.hops, durationMs: result.durationMs }, now(), { followed: 'true' }),
        );
      }
      return emissions;
    },

    onGiveUp(request, error) {
      count('processing_failed');
      return [statusEmission(request, { kind: 'status', outcome: 'processing_failed', httpStatus: null, retriable: true, hops: [], durationMs: 0, errorCode: errorCode(error), errorMessage: errorMessage(error).slice(0, 500) }, now())];
    },
  };
}

export function statusEmission(request: FrontierRequest, result: StatusOutcome, fetchedAt: number, meta: Record<string, string> = {}): Emission {
  const value: StatusUpdate = {
    url: request.url,
    urlId: request.urlId,
    host: request.host,
    queueKey: request.queueKey,
    depth: request.depth,
    jobId: request.jobId,
    traceId: request.traceId,
    outcome: result.outcome,
    httpStatus: result.httpStatus,
    fetchedAt,
    attempt: request.attempt,
    redirectTo: result.redirectTo ?? null,
    change: null,
    duplicateOf: null,
    distance: null,
    digest: null,
    rawDigest: null,
    etag: result.etag ?? null,
    lastModified: result.lastModified ?? null,
    retryAfterMs: result.retryAfterMs ?? null,
    errorCode: result.errorCode ?? null,
    errorMessage: result.errorMessage ?? null,
    retriable: result.retriable,
    verdict: null,
    meta: { ...request.meta, ...meta },
  };
  return { topic: Topics.status, schema: Schemas.StatusUpdate, key: request.queueKey, value };
}
