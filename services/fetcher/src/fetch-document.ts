import { fetchUrl, type FetchUrlDeps } from './fetch-url.js';

/** A document fetched for a stage that needs it while it works on a page. */
export interface FetchedDocument {
  finalUrl: string;
  mediaType: string | null;
  charset: string | null;
  body: Buffer;
}

/**
 * Fetches a document another stage waits for (a frame to splice) the way the fetcher fetches
 * pages: robots.txt, the address policy on every hop, and the host's politeness queue (ahead of
 * its waiting URLs). Null when it cannot be had: refused, failed, not a page, or `signal` ended it.
 */
export async function fetchDocument(
  deps: FetchUrlDeps,
  url: string,
  jobId: string,
  signal: AbortSignal,
): Promise<FetchedDocument | null> {
  const result = await fetchUrl(
    deps,
    { url, jobId, etag: null, lastModified: null, front: true },
    { handBack: signal, abort: signal },
  ).catch(() => null);
  if (!result || result.kind !== 'page') return null;
  return { finalUrl: result.finalUrl, mediaType: result.contentType, charset: result.charset, body: result.body };
}
