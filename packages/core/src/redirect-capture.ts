/** The HTTP statuses that send a client elsewhere with a Location header. */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

export function isRedirectStatus(status: number | null | undefined): boolean {
  return status !== null && status !== undefined && REDIRECT_STATUSES.has(status);
}

/**
 * A redirect the fetcher followed travels crawl.fetched and crawl.parsed as a response of its own
 * (its 3xx status, its headers with Location, its short body) so that dedup archives it; a page is
 * never published with a redirect status. Every stage that meets one asks here and passes it on
 * as it is: it is not parsed, deduplicated, counted or stored as a page.
 */
export function isRedirectCapture(message: { httpStatus: number | null }): boolean {
  return isRedirectStatus(message.httpStatus);
}
