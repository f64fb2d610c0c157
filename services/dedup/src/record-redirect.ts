import { rawBody, surtKey, type ParsedPage, type RedirectCapture } from '@crawler/core';

/**
 * The archive's copy of a redirect the fetcher followed (isRedirectCapture): its status line,
 * headers and body as served, so a replay redirects where the site did. Its fetch outcome reached
 * the scheduler from the fetcher already; dedup only stores it, and it is no page: no
 * fingerprint, no decision, nothing on crawl.pages, crawl.links or crawl.status.
 */
export function redirectCaptureOf(page: ParsedPage): RedirectCapture {
  return {
    url: page.url,
    surt: surtKey(page.url),
    jobId: page.jobId,
    fetchedAt: page.fetchedAt,
    httpStatus: page.httpStatus,
    headers: page.headers,
    requestHeaders: page.requestHeaders,
    location: new URL(page.headers.location ?? '', page.url).href,
    body: rawBody(page.body, page.bodyEncoding),
    truncated: page.truncated,
  };
}
