import type { CrawlJob, Emission, FetchResult, Link, ParsedPage, Stage, StatusUpdate } from '@crawler/core';
import { decodeText, rawBody } from './decode-body.js';
import { extractHtml, type ExtractLimits } from './extract-html.js';
import { canonicalize, createScope, errorCode, errorMessage, Schemas, Topics, type DropReason } from '@crawler/core';

export interface LinkextractStageOptions {
  job: CrawlJob;
  limits: ExtractLimits;
  followNofollow: boolean;
}

const NOFOLLOW_RELS = /\b(nofollow|ugc|sponsored)\b/;

/**
 * crawl.fetched -> crawl.parsed: decodes the body with the fetcher's charset, extracts links,
 * text and metadata, resolves links against <base> and the final URL, canonicalizes them and
 * keeps those in the job's scope. Every dropped link is counted by reason.
 */
export function createLinkextractStage(options: LinkextractStageOptions): Stage<FetchResult> & { dropped: Map<DropReason, number> } {
  const scope = createScope(options.job);
  const dropped = new Map<DropReason, number>();
  const drop = (reason: DropReason) => dropped.set(reason, (dropped.get(reason) ?? 0) + 1);

  return {
    name: 'linkextract',
    input: { topic: Topics.fetched, schema: Schemas.FetchResult },
    outputs: [Topics.parsed, Topics.status],
    dropped,

    async handle(fetched) {
      const html = decodeText(rawBody(fetched.body, fetched.bodyEncoding), fetched.charset);
      const extracted = extractHtml(html.text, options.limits);
      const robotsHeader = (fetched.headers['x-robots-tag'] ?? '').toLowerCase();
      const noindex = extracted.noindex || /\b(noindex|none)\b/.test(robotsHeader);
      const nofollow = extracted.nofollow || /\b(nofollow|none)\b/.test(robotsHeader);
      const pageUrl = new URL(fetched.finalUrl);
      const base = resolveBase(extracted.baseHref, pageUrl);
      const links: Link[] = [];
      const seen = new Set<string>();
      const depthOk = scope.depthAllowed(fetched.depth + 1);
      for (const raw of extracted.links) {
        if (raw.source === 'canonical') continue;
        if (nofollow) {
          drop('nofollow');
          continue;
        }
        if (!options.followNofollow && raw.rel && NOFOLLOW_RELS.test(raw.rel)) {
          drop('nofollow');
          continue;
        }
        const canonical = canonicalize(raw.href, base);
        if (!canonical.ok) {
          drop(canonical.reason);
          continue;
        }
        if (canonical.url.length > options.job.maxUrlLength) {
          drop('too-long');
          continue;
        }
        if (seen.has(canonical.url)) {
          drop('duplicate');
          continue;
        }
        seen.add(canonical.url);
        if (!depthOk) {
          drop('depth');
          continue;
        }
        const reason = scope.check(canonical.parsed, pageUrl);
        if (reason) {
          drop(reason);
          continue;
        }
        links.push({ url: canonical.url, anchor: raw.anchor, rel: raw.rel, source: raw.source });
      }
      const declaredCanonical = extracted.canonical ? canonicalize(extracted.canonical, base) : null;
      const parsed: ParsedPage = {
        url: fetched.url,
        urlId: fetched.urlId,
        host: fetched.host,
        queueKey: fetched.queueKey,
        depth: fetched.depth,
        jobId: fetched.jobId,
        traceId: fetched.traceId,
        finalUrl: fetched.finalUrl,
        httpStatus: fetched.httpStatus,
        contentType: fetched.contentType,
        charset: html.charset,
        charsetSource: fetched.charsetSource,
        headers: fetched.headers,
        fetchedAt: fetched.fetchedAt,
        durationMs: fetched.durationMs,
        etag: fetched.etag,
        lastModified: fetched.lastModified,
        body: fetched.body,
        bodyEncoding: fetched.bodyEncoding,
        bodyLength: fetched.bodyLength,
        truncated: fetched.truncated,
        previousDigest: fetched.previousDigest,
        canonicalUrl: declaredCanonical?.ok ? declaredCanonical.url : null,
        title: extracted.title,
        description: extracted.description,
        lang: extracted.lang,
        publishedAt: null,
        text: extracted.text,
        links,
        noindex,
        nofollow,
        fields: {},
        warnings: extracted.warnings,
        meta: fetched.meta,
      };
      return [{ topic: Topics.parsed, schema: Schemas.ParsedPage, key: fetched.queueKey, value: parsed }];
    },

    onGiveUp(fetched, error): Emission[] {
      const status: StatusUpdate = {
        url: fetched.url,
        urlId: fetched.urlId,
        host: fetched.host,
        queueKey: fetched.queueKey,
        depth: fetched.depth,
        jobId: fetched.jobId,
        traceId: fetched.traceId,
        outcome: 'processing_failed',
        httpStatus: fetched.httpStatus,
        fetchedAt: fetched.fetchedAt,
        attempt: fetched.attempt,
        redirectTo: null,
        change: null,
        duplicateOf: null,
        distance: null,
        digest: null,
        rawDigest: null,
        etag: null,
        lastModified: null,
        retryAfterMs: null,
        errorCode: errorCode(error),
        errorMessage: errorMessage(error).slice(0, 500),
        retriable: false,
        verdict: null,
        meta: fetched.meta,
      };
      return [{ topic: Topics.status, schema: Schemas.StatusUpdate, key: fetched.queueKey, value: status }];
    },
  };
}

/** <base href> applies when it resolves to an http(s) URL; otherwise the page URL is the base. */
function resolveBase(baseHref: string | null, pageUrl: URL): URL {
  if (!baseHref) return pageUrl;
  try {
    const base = new URL(baseHref, pageUrl);
    return base.protocol === 'http:' || base.protocol === 'https:' ? base : pageUrl;
  } catch {
    return pageUrl;
  }
}
