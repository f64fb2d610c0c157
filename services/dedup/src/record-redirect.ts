import { rawBody, type ParsedPage, type RedirectCapture } from '@crawler/core';
import { servedCaptureOf } from './record-revisit.js';

/**
 * The archive's copy of a redirect the fetcher followed (isRedirectCapture): its status line,
 * headers and body as served, so a replay redirects where the site did. Its fetch outcome reached
 * the scheduler from the fetcher already; dedup only stores it, and it is no page: no
 * fingerprint, no decision, nothing on crawl.pages, crawl.links or crawl.status.
 */
export function redirectCaptureOf(page: ParsedPage): RedirectCapture {
  return {
    ...servedCaptureOf(page),
    requestHeaders: page.requestHeaders,
    location: new URL(page.headers.location ?? '', page.url).href,
    body: rawBody(page.body, page.bodyEncoding),
    truncated: page.truncated,
  };
}
