import type { CrawlJob, DropReason, Emission, FetchResult, Logger, Stage } from '@crawler/core';
import { errorCode, errorMessage, isRedirectCapture, Schemas, statusEmission, Topics } from '@crawler/core';
import type { DocumentExtractor } from './documents/document-extractor.js';
import type { ExtractLimits } from './extract-html.js';
import type { FrameFetcher } from './frame-splicing.js';
import { createPageParser } from './page-parser.js';
import { toParsedPage, unparsedRedirect } from './to-parsed-page.js';

export interface LinkextractStageOptions {
  job: CrawlJob;
  limits: ExtractLimits;
  followNofollow: boolean;
  /** Body bytes parsed per page (default 8 MiB). */
  maxInputBytes?: number;
  frames?: FrameFetcher;
  /** The crawler's product token, for robots directives addressed to it. */
  robotsAgent?: string | null;
  /** Where a page that lost links to a cap is reported. */
  logger?: Logger;
  /** Where documents are extracted (default: on this thread); its owner closes it. */
  extractor?: DocumentExtractor;
}

export interface LinkextractCounters {
  /** Links not passed on, by reason, over all pages. */
  dropped: Map<DropReason, number>;
  /** Pages flagged, by warning (caps hit, binary bodies, missing required fields…). */
  warnings: Map<string, number>;
}

/**
 * crawl.fetched -> crawl.parsed: decodes the body with the fetcher's charset, extracts links,
 * main text, metadata and structured fields (HTML, feeds, sitemaps, plain text), and passes on
 * the links the job's scope admits. Drops and flags are counted by reason. A redirect passes on
 * unparsed, for dedup to archive.
 */
export function createLinkextractStage(options: LinkextractStageOptions): Stage<FetchResult> & LinkextractCounters {
  const parse = createPageParser({ ...options, maxInputBytes: options.maxInputBytes ?? 8 * 1024 * 1024 });
  const dropped = new Map<DropReason, number>();
  const warnings = new Map<string, number>();

  return {
    name: 'linkextract',
    input: { topic: Topics.fetched, schema: Schemas.FetchResult },
    outputs: [Topics.parsed, Topics.status],
    dropped,
    warnings,

    async handle(fetched) {
      if (isRedirectCapture(fetched))
        return [
          { topic: Topics.parsed, schema: Schemas.ParsedPage, key: fetched.queueKey, value: unparsedRedirect(fetched) },
        ];
      const content = await parse({
        body: fetched.body,
        bodyEncoding: fetched.bodyEncoding,
        finalUrl: fetched.finalUrl,
        depth: fetched.depth,
        mediaType: fetched.contentType,
        charset: fetched.charset,
        headers: fetched.headers,
        fetchedAt: fetched.fetchedAt,
      });
      for (const [reason, count] of content.dropped) dropped.set(reason, (dropped.get(reason) ?? 0) + count);
      for (const warning of content.warnings) warnings.set(warning, (warnings.get(warning) ?? 0) + 1);
      const capped = content.dropped.get('links-capped');
      if (capped)
        options.logger?.warn(
          { url: fetched.url, dropped: capped, kept: content.links.length, maxLinks: options.limits.maxLinks },
          'links capped: the page has more distinct in-scope links than LINKEXTRACT_MAX_LINKS; the rest are not followed',
        );
      const parsed = toParsedPage(fetched, content);
      return [{ topic: Topics.parsed, schema: Schemas.ParsedPage, key: fetched.queueKey, value: parsed }];
    },

    onGiveUp(fetched, error): Emission[] {
      return [
        statusEmission(fetched, {
          outcome: 'processing_failed',
          httpStatus: fetched.httpStatus,
          fetchedAt: fetched.fetchedAt,
          attempt: fetched.attempt,
          errorCode: errorCode(error),
          errorMessage: errorMessage(error).slice(0, 500),
          meta: fetched.meta,
        }),
      ];
    },
  };
}
