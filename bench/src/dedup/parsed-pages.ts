import { canonicalUrl, urlId, type FetchResult, type ParsedPage } from '@crawler/core';
import { toParsedPage, type PageInput } from '@crawler/linkextract';
import { createDefaultPageParser } from '../default-page-parser.js';

export type PageParser = (
  input: PageInput & { url: string },
  fetchedAt: number,
  previousDigest: string | null,
) => Promise<ParsedPage>;

/**
 * Turns a fetched body into the ParsedPage dedup receives, with link extraction's real parser (main
 * text, links, title), as the services would: a page's way through the loop without the bus.
 */
export function createParsedPageBuilder(): PageParser {
  const parse = createDefaultPageParser();
  return async (input, fetchedAt, previousDigest) => {
    const content = await parse(input);
    const url = canonicalUrl(input.url) ?? input.url;
    const host = new URL(url).host;
    const fetched: FetchResult = {
      url,
      urlId: urlId(url),
      host,
      queueKey: host,
      depth: input.depth,
      jobId: 'bench',
      traceId: 'bench',
      attempt: 0,
      finalUrl: input.finalUrl,
      httpStatus: 200,
      contentType: input.mediaType,
      charset: content.charset,
      charsetSource: 'header',
      headers: {},
      requestHeaders: {},
      fetchedAt,
      durationMs: 1,
      etag: null,
      lastModified: null,
      hops: [],
      body: input.body,
      bodyEncoding: 'identity',
      bodyLength: input.body.length,
      truncated: false,
      previousDigest,
      meta: {},
    };
    return toParsedPage(fetched, content);
  };
}

/** GETs a page of a local test site as the fetcher would hand it on (charset from the header); null unless 200. */
export async function fetchPage(url: string): Promise<(PageInput & { url: string }) | null> {
  const response = await fetch(url, { redirect: 'manual' });
  const body = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200) return null;
  const type = response.headers.get('content-type') ?? 'text/html';
  const charset = /charset=([^;]+)/i.exec(type)?.[1]?.trim().toLowerCase() ?? 'utf-8';
  return { url, body, finalUrl: url, depth: 1, mediaType: type.split(';')[0]!.trim(), charset, headers: {} };
}
