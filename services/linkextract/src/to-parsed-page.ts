import type { FetchResult, ParsedPage } from '@crawler/core';
import { withUrlIdentity } from '@crawler/core';
import type { ParsedContent } from './page-parser.js';

/** What link extraction hands on for a fetched page: the fetch's fields and what the parser found in it. */
export function toParsedPage(fetched: FetchResult, content: ParsedContent): ParsedPage {
  return withUrlIdentity(fetched, {
    finalUrl: fetched.finalUrl,
    httpStatus: fetched.httpStatus,
    contentType: fetched.contentType,
    charset: content.charset ?? fetched.charset,
    charsetSource: fetched.charsetSource,
    headers: fetched.headers,
    requestHeaders: fetched.requestHeaders,
    fetchedAt: fetched.fetchedAt,
    durationMs: fetched.durationMs,
    etag: fetched.etag,
    lastModified: fetched.lastModified,
    body: fetched.body,
    bodyEncoding: fetched.bodyEncoding,
    bodyLength: fetched.bodyLength,
    truncated: fetched.truncated,
    previousDigest: fetched.previousDigest,
    canonicalUrl: content.canonicalUrl,
    title: content.title,
    description: content.description,
    lang: content.lang,
    publishedAt: content.publishedAt,
    text: content.text,
    markdown: content.markdown,
    pageBlocks: content.pageBlocks,
    links: content.links,
    noindex: content.noindex,
    nofollow: content.nofollow,
    fields: content.fields,
    warnings: content.warnings,
    meta: fetched.meta,
  });
}

/** Nothing parsed: what a redirect (isRedirectCapture) passes on with, its Location followed by the scheduler, not as a link. */
const UNPARSED: ParsedContent = {
  kind: 'other',
  charset: null,
  canonicalUrl: null,
  title: null,
  description: null,
  lang: null,
  publishedAt: null,
  text: '',
  textMethod: 'none',
  markdown: null,
  pageBlocks: null,
  links: [],
  noindex: false,
  nofollow: false,
  fields: {},
  warnings: [],
  dropped: new Map(),
};

/** A redirect handed on to be archived: the fetch's fields as they are, no content. */
export function unparsedRedirect(fetched: FetchResult): ParsedPage {
  return toParsedPage(fetched, UNPARSED);
}
