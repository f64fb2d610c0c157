import { Schemas, statusEmission, surtKey, Topics } from '@crawler/core';
import type {
  ChangeDecision,
  Emission,
  Outlinks,
  ParsedPage,
  ReviewRecord,
  StatusFields,
  StoredPage,
} from '@crawler/core';
import type { Judgement } from './judge/judge.js';

/** What dedup adds to a page when it stores it. */
export interface StoredFields {
  digest: string;
  rawDigest: string;
  simhash: string | null;
  change: ChangeDecision;
  verdict: string | null;
}

/** The page as stored and published on crawl.pages: the fetch, the extraction and dedup's fields. */
export function toStoredPage(page: ParsedPage, fields: StoredFields): StoredPage {
  return {
    url: page.url,
    urlId: page.urlId,
    surt: surtKey(page.url),
    host: page.host,
    jobId: page.jobId,
    traceId: page.traceId,
    depth: page.depth,
    finalUrl: page.finalUrl,
    httpStatus: page.httpStatus,
    contentType: page.contentType,
    charset: page.charset,
    charsetSource: page.charsetSource,
    headers: page.headers,
    requestHeaders: page.requestHeaders,
    fetchedAt: page.fetchedAt,
    durationMs: page.durationMs,
    etag: page.etag,
    lastModified: page.lastModified,
    body: page.body,
    bodyEncoding: page.bodyEncoding,
    bodyLength: page.bodyLength,
    truncated: page.truncated,
    canonicalUrl: page.canonicalUrl,
    title: page.title,
    description: page.description,
    lang: page.lang,
    publishedAt: page.publishedAt,
    text: page.text,
    markdown: page.markdown,
    links: page.links,
    fields: page.fields,
    ...fields,
  };
}

export function storedPageEmission(page: ParsedPage, stored: StoredPage): Emission {
  return { topic: Topics.pages, schema: Schemas.StoredPage, key: page.host, value: stored };
}

export function outlinksEmission(page: ParsedPage, links: Outlinks['links']): Emission {
  const value: Outlinks = {
    kind: 'page',
    sourceUrl: page.url,
    sourceUrlId: page.urlId,
    jobId: page.jobId,
    traceId: page.traceId,
    depth: page.depth + 1,
    discoveredAt: page.fetchedAt,
    links,
  };
  return { topic: Topics.links, schema: Schemas.Outlinks, key: page.host, value };
}

export function reviewEmission(
  page: ParsedPage,
  digest: string,
  judgement: Judgement,
  judge: string,
  judgedAt: number,
): Emission {
  const value: ReviewRecord = {
    url: page.url,
    urlId: page.urlId,
    host: page.host,
    jobId: page.jobId,
    traceId: page.traceId,
    digest,
    verdict: judgement.verdict,
    category: judgement.category ?? judgement.verdict,
    reasons: judgement.reasons,
    judge,
    judgedAt,
  };
  return { topic: Topics.review, schema: Schemas.ReviewRecord, key: page.host, value };
}

/** The page's status for the scheduler: every dedup decision is a field of it, the fetch's own come from the page. */
export function pageStatusEmission(page: ParsedPage, fields: Omit<StatusFields, 'fetchedAt'>): Emission {
  return statusEmission(page, {
    httpStatus: page.httpStatus,
    fetchedAt: page.fetchedAt,
    etag: page.etag,
    lastModified: page.lastModified,
    meta: page.meta,
    ...fields,
  });
}
