import {
  canonicalUrl,
  Schemas,
  Topics,
  linkRecordId,
  type Emission,
  type FrontierRequest,
  type Outlinks,
} from '@crawler/core';
import type { FetchUrlOutcome, PageOutcome, StatusOutcome } from '../fetch-url.js';
import type { PlainPage, RenderOutcome } from './renderer.js';

/** What the renderer needs of a plainly fetched page. */
export function plainPageOf(request: FrontierRequest, page: PageOutcome): PlainPage {
  return {
    url: page.finalUrl,
    urlId: page.finalUrl === request.url ? request.urlId : linkRecordId(request.jobId, page.finalUrl),
    status: page.httpStatus,
    headers: page.headers,
    contentType: page.contentType,
    charset: page.charset,
    body: page.body,
  };
}

/**
 * The page as published after rendering: the DOM serialized as UTF-8 HTML. The headers stay the
 * server's, except those describing the bytes, which are no longer the server's bytes.
 */
function renderedPage(page: PageOutcome, rendered: Extract<RenderOutcome, { kind: 'rendered' }>): PageOutcome {
  const { 'content-length': _length, 'content-encoding': _encoding, ...headers } = page.headers;
  return {
    ...page,
    headers: { ...headers, 'content-type': 'text/html; charset=utf-8' },
    body: rendered.body,
    truncated: rendered.truncated,
    contentType: 'text/html',
    sniffed: false,
    charset: 'utf-8',
    charsetSource: 'rendered',
  };
}

/** What to publish once rendering had its say: the rendered page, a script redirect, or the fetch as it was. */
export function afterRender(fetched: FetchUrlOutcome, rendered: RenderOutcome | null): FetchUrlOutcome {
  if (fetched.kind !== 'page' || !rendered) return fetched;
  if (rendered.kind === 'redirect') return scriptRedirect(fetched, rendered);
  if (rendered.kind === 'rendered') return renderedPage(fetched, rendered);
  return fetched;
}

/** A script moved the page: a redirect like an HTTP one, which the scheduler follows and bounds. */
function scriptRedirect(page: PageOutcome, rendered: Extract<RenderOutcome, { kind: 'redirect' }>): StatusOutcome {
  return {
    kind: 'status',
    outcome: 'redirect',
    httpStatus: page.httpStatus,
    retriable: false,
    redirectTo: rendered.redirectTo,
    hops: page.hops,
    redirects: page.redirects,
    durationMs: page.durationMs,
    headers: page.headers,
  };
}

/**
 * URLs a page's scripts fetched that answered HTML, as links for the scheduler: kind "xhr", so it
 * scopes them as it scopes sitemap and redirect links (page links were scoped by link extraction).
 */
export function scriptFetchesEmission(
  request: FrontierRequest,
  sourceUrl: string,
  urls: string[],
  discoveredAt: number,
): Emission {
  const value: Outlinks = {
    kind: 'xhr',
    sourceUrl,
    sourceUrlId: linkRecordId(request.jobId, sourceUrl),
    jobId: request.jobId,
    traceId: request.traceId,
    depth: request.depth + 1,
    discoveredAt,
    links: urls.flatMap((url) => {
      const canonical = canonicalUrl(url);
      return canonical
        ? [{ url: canonical, anchor: null, rel: null, source: 'xhr', lastmod: null, changefreq: null }]
        : [];
    }),
  };
  return { topic: Topics.links, schema: Schemas.Outlinks, key: new URL(sourceUrl).host, value };
}
