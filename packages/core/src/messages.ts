/**
 * TypeScript shapes of the Avro messages in schemas/avro. The codec checks values against the
 * schemas at runtime; a test encodes a sample of each type, so these shapes cannot drift unnoticed.
 */

export type Outcome =
  | 'ok'
  | 'not_modified'
  | 'redirect'
  | 'gone'
  | 'denied'
  | 'throttled'
  | 'server_error'
  | 'client_error'
  | 'dns_failure'
  | 'connection_refused'
  | 'tls_error'
  | 'timeout'
  | 'too_large'
  | 'unsupported_type'
  | 'blocked_robots'
  | 'blocked_address'
  | 'redirect_loop'
  | 'too_many_redirects'
  | 'network_error'
  | 'invalid_url'
  | 'noindex'
  | 'processing_failed'
  | 'blocked_by_site';

export type ChangeDecision = 'new' | 'changed' | 'unchanged' | 'duplicate' | 'near_duplicate';
export type TrafficClass = 'discovery' | 'freshness' | 'update';
export type BodyEncoding = 'identity' | 'gzip';
export type LinkSource =
  | 'a'
  | 'area'
  | 'frame'
  | 'iframe'
  | 'meta-refresh'
  | 'canonical'
  | 'link'
  | 'text'
  | 'jsonld'
  | 'redirect'
  | 'sitemap'
  | 'seed'
  | 'feed';

export interface UrlIdentity {
  url: string;
  urlId: string;
  host: string;
  queueKey: string;
  depth: number;
  jobId: string;
  traceId: string;
}

export type Changefreq = 'always' | 'hourly' | 'daily' | 'weekly' | 'monthly' | 'yearly' | 'never';

export interface Link {
  url: string;
  anchor: string | null;
  rel: string | null;
  source: LinkSource | string;
  /** Sitemap `<lastmod>`, epoch ms (null off sitemaps, or when absent or unusable). */
  lastmod: number | null;
  /** Sitemap `<changefreq>`, lowercased (null off sitemaps, or when absent or not one of the seven values). */
  changefreq: Changefreq | string | null;
}

export interface Hop {
  url: string;
  status: number;
  location: string | null;
}

export interface FetchMeta {
  finalUrl: string;
  httpStatus: number;
  contentType: string | null;
  charset: string | null;
  charsetSource: string | null;
  headers: Record<string, string>;
  /** Headers of the request the response answered, lowercase names; empty when not known (older messages). */
  requestHeaders: Record<string, string>;
  fetchedAt: number;
  durationMs: number;
  etag: string | null;
  lastModified: string | null;
}

export interface BodyFields {
  body: Buffer;
  bodyEncoding: BodyEncoding | string;
  bodyLength: number;
  truncated: boolean;
}

export interface FrontierRequest extends UrlIdentity {
  attempt: number;
  scheduledAt: number;
  leaseUntil: number;
  trafficClass: TrafficClass | string;
  etag: string | null;
  lastModified: string | null;
  previousDigest: string | null;
  meta: Record<string, string>;
}

export interface FetchResult extends UrlIdentity, FetchMeta, BodyFields {
  attempt: number;
  hops: Hop[];
  previousDigest: string | null;
  meta: Record<string, string>;
}

/**
 * One run of text between block boundaries, as link extraction renders main text (one line per
 * run), with the element path it sits in. `path` hashes the chain of tags with their id and
 * classes (digits masked: "post-1234" and "post-99" are one place); `masked` hashes the text with
 * digit runs masked and case folded, so "Updated 10:42" and "Updated 11:07" read as one text.
 */
export interface PageBlock {
  path: number;
  masked: number;
  text: string;
}

/** A page cut into blocks (dedup's site templates read them), and how many characters of visible text it has, blocks past the cap included. */
export interface PageBlocks {
  blocks: PageBlock[];
  textChars: number;
}

export interface ParsedPage extends UrlIdentity, FetchMeta, BodyFields {
  previousDigest: string | null;
  canonicalUrl: string | null;
  title: string | null;
  description: string | null;
  lang: string | null;
  publishedAt: number | null;
  text: string;
  /** The main content as Markdown; null for documents that are not HTML (and in messages before ParsedPage v3). */
  markdown: string | null;
  /** The HTML page's blocks from link extraction's pass; null for other documents, redirects and messages before ParsedPage v5. */
  pageBlocks: PageBlocks | null;
  links: Link[];
  noindex: boolean;
  nofollow: boolean;
  fields: Record<string, string[]>;
  warnings: string[];
  meta: Record<string, string>;
}

export interface StatusUpdate extends UrlIdentity {
  outcome: Outcome | string;
  httpStatus: number | null;
  fetchedAt: number;
  attempt: number;
  redirectTo: string | null;
  change: ChangeDecision | string | null;
  duplicateOf: string | null;
  distance: number | null;
  digest: string | null;
  rawDigest: string | null;
  etag: string | null;
  lastModified: string | null;
  retryAfterMs: number | null;
  errorCode: string | null;
  errorMessage: string | null;
  retriable: boolean;
  verdict: string | null;
  meta: Record<string, string>;
}

export type OutlinksKind = 'page' | 'seed' | 'redirect' | 'sitemap' | 'robots';

export interface Outlinks {
  kind: OutlinksKind | string;
  sourceUrl: string | null;
  sourceUrlId: string | null;
  jobId: string;
  traceId: string;
  depth: number;
  discoveredAt: number;
  links: Link[];
}

export interface StoredPage extends FetchMeta, BodyFields {
  url: string;
  urlId: string;
  surt: string;
  host: string;
  jobId: string;
  traceId: string;
  depth: number;
  canonicalUrl: string | null;
  title: string | null;
  description: string | null;
  lang: string | null;
  publishedAt: number | null;
  text: string;
  /** The main content as Markdown; null for documents that are not HTML (and in pages stored before StoredPage v3). */
  markdown: string | null;
  links: Link[];
  fields: Record<string, string[]>;
  digest: string;
  rawDigest: string;
  simhash: string | null;
  change: ChangeDecision | string;
  verdict: string | null;
}

export interface DeadLetter {
  topic: string;
  partition: number;
  offset: number;
  key: Buffer | null;
  value: Buffer;
  /** The original value's length when `value` holds only its first bytes (cut to fit crawl.dlq). */
  valueTruncatedFrom: number | null;
  headers: Record<string, string>;
  service: string;
  consumerGroup: string;
  errorCode: string;
  reason: string;
  attempts: number;
  failedAt: number;
}

export interface ReviewRecord {
  url: string;
  urlId: string;
  host: string;
  jobId: string;
  traceId: string;
  digest: string;
  verdict: string;
  category: string;
  reasons: string[];
  judge: string;
  judgedAt: number;
}

/** Avro full names of the message schemas. */
export const Schemas = {
  FrontierRequest: 'crawler.FrontierRequest',
  FetchResult: 'crawler.FetchResult',
  ParsedPage: 'crawler.ParsedPage',
  StatusUpdate: 'crawler.StatusUpdate',
  Outlinks: 'crawler.Outlinks',
  StoredPage: 'crawler.StoredPage',
  DeadLetter: 'crawler.DeadLetter',
  ReviewRecord: 'crawler.ReviewRecord',
} as const;
