import type { StoredPage } from '../messages.js';

/** What every capture that is not a page version has: its URL, job, time, status and headers. */
export interface ServedCapture {
  url: string;
  surt: string;
  jobId: string;
  fetchedAt: number;
  /** The HTTP status and headers this capture was served with (a redirect's Location as the server wrote it). */
  httpStatus: number;
  headers: Record<string, string>;
}

/**
 * A capture dedup did not store because its payload is byte for byte one an earlier capture had
 * (an unchanged page fetched again, or the same bytes at another URL): archives record it as a
 * WARC `revisit` (identical-payload-digest profile), so a replay of a later crawl has no hole.
 */
export interface Revisit extends ServedCapture {
  /** `sha1:BASE32` of the payload: the same as the original's, which replay tools match it by. */
  payloadDigest: string;
  /** The capture that first had these bytes (WARC-Refers-To-Target-URI and -Date). */
  refersToUrl: string;
  refersToDate: number;
}

/**
 * A redirect the crawler followed (a 3xx with a Location): archives keep it as a `response` record
 * with its status line and headers, so a replay of the crawl redirects where the site did. It is
 * no page: page reads, counts and crawl.pages never see it.
 */
export interface RedirectCapture extends ServedCapture {
  /** The headers the request was sent with; empty when not known. */
  requestHeaders: Record<string, string>;
  /** Where it sends the client: Location resolved against the URL. */
  location: string;
  /** The body served with it (usually a short note), decoded; cut at the fetcher's cap when `truncated`. */
  body: Buffer;
  truncated: boolean;
}

/**
 * Versioned page storage: row key = SURT of the URL, version = fetch time. Writing the same
 * (url, fetchedAt) twice stores it once, so redelivered messages are harmless; revisits and
 * redirects alike.
 */
export interface PageStore {
  put(pages: StoredPage[]): Promise<void>;
  /** Versions of one URL, newest first; `versions` caps how many. */
  get(url: string, options?: { versions?: number }): Promise<StoredPage[]>;
  putRevisits(revisits: Revisit[]): Promise<void>;
  /** Revisits of one URL, newest first; `versions` caps how many. */
  getRevisits(url: string, options?: { versions?: number }): Promise<Revisit[]>;
  putRedirects(redirects: RedirectCapture[]): Promise<void>;
  /** Redirect captures of one URL, newest first; `versions` caps how many. */
  getRedirects(url: string, options?: { versions?: number }): Promise<RedirectCapture[]>;
  flush(): Promise<void>;
  close(): Promise<void>;
}
