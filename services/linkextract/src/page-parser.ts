import type { CrawlJob, DropReason, Link, PageBlocks } from '@crawler/core';
import { canonicalize, jobCanonicalizeOptions } from '@crawler/core';
import { createDocumentExtractor, type DocumentExtractor } from './documents/document-extractor.js';
import type { DocumentKind } from './documents/document-kind.js';
import type { ExtractLimits } from './extract-html.js';
import { spliceFrames, type FrameFetcher } from './frame-splicing.js';
import { documentBase } from './html/document-base.js';
import { createLinkFilter } from './link-filter.js';
import { parseRobotsDirectives } from './robots-directives.js';
import { applyRules, rulesFor } from './structured/apply-rules.js';
import { compileJobRules } from './structured/extraction-rules.js';

export interface PageParserOptions {
  job: CrawlJob;
  limits: ExtractLimits;
  followNofollow: boolean;
  /** Body bytes parsed per page. */
  maxInputBytes: number;
  /** Backs frame splicing when the job asks for it; without it frames are only links. */
  frames?: FrameFetcher;
  /** The crawler's product token, for robots directives addressed to it. */
  robotsAgent?: string | null;
  /** Where documents are extracted (default: on this thread). */
  extractor?: DocumentExtractor;
}

export interface PageInput {
  /** The body as the server sent it, or as the bus carries it (see bodyEncoding). */
  body: Buffer;
  /** The bus compression of the body (default 'identity': as the server sent it). */
  bodyEncoding?: string;
  finalUrl: string;
  depth: number;
  mediaType: string | null;
  charset: string | null;
  headers: Record<string, string>;
  /** When the body was fetched, epoch ms (default now): sitemap lastmods are judged against it. */
  fetchedAt?: number;
}

export interface ParsedContent {
  kind: DocumentKind;
  charset: string | null;
  canonicalUrl: string | null;
  title: string | null;
  description: string | null;
  lang: string | null;
  publishedAt: number | null;
  text: string;
  textMethod: string;
  /** The main content as Markdown; null when the document is not HTML. */
  markdown: string | null;
  /** The HTML page's blocks, for dedup; null when the document is not HTML. */
  pageBlocks: PageBlocks | null;
  links: Link[];
  noindex: boolean;
  nofollow: boolean;
  fields: Record<string, string[]>;
  warnings: string[];
  /** Links of this page that were not passed on, by reason. */
  dropped: Map<DropReason, number>;
}

const MAX_FRAMES = 4;
const FRAME_TIMEOUT_MS = 5000;

/**
 * Everything link extraction does to one fetched body, bus aside: the document's links, text,
 * metadata and fields; X-Robots-Tag; outlinks resolved and scoped; the job's extraction rules;
 * frame splicing. The stage and `crawler check parse` both use it.
 */
export function createPageParser(options: PageParserOptions): (input: PageInput) => Promise<ParsedContent> {
  const { job } = options;
  const filterLinks = createLinkFilter(job, options.followNofollow, options.limits.maxLinks);
  const rules = compileJobRules(job);
  const extractor = options.extractor ?? createDocumentExtractor(0);
  const canonicalOptions = jobCanonicalizeOptions(job);
  const documentOptions = {
    limits: options.limits,
    maxInputBytes: options.maxInputBytes,
    extract: {
      textLinks: job.extraction.textLinks,
      feedLinks: job.extraction.feeds,
      robotsAgent: options.robotsAgent ?? null,
    },
  };

  return async (input) => {
    const page = new URL(input.finalUrl);
    const pageRules = rulesFor(rules, page.href);
    const document = await extractor.extract(
      {
        body: input.body,
        bodyEncoding: input.bodyEncoding ?? 'identity',
        mediaType: input.mediaType,
        charset: input.charset,
        fetchedAt: input.fetchedAt,
        url: input.finalUrl,
        keepSource: pageRules.length > 0,
      },
      documentOptions,
    );
    const extraction = document.extraction;
    const header = parseRobotsDirectives([input.headers['x-robots-tag'] ?? ''], options.robotsAgent ?? null);
    const noindex = extraction.noindex || header.noindex;
    const nofollow = extraction.nofollow || header.nofollow;
    const base = documentBase(extraction.baseHref, page);
    const { links, dropped } = filterLinks({
      links: extraction.links,
      overflow: extraction.linksOverflow,
      base,
      page,
      depth: input.depth,
      nofollow,
    });

    const fields = Object.fromEntries(extraction.fields);
    const warnings = [...extraction.warnings];
    if (dropped.has('links-capped') && !warnings.includes('links-capped')) warnings.push('links-capped');
    const applicable = document.kind === 'html' ? pageRules : [];
    if (applicable.length > 0) {
      const ruled = applyRules(document.source, applicable);
      Object.assign(fields, Object.fromEntries(ruled.fields));
      fields['rules:matched'] = ruled.matched;
      if (ruled.missing.length > 0) {
        fields['rules:missing'] = ruled.missing;
        warnings.push('required-field-missing');
      }
    }

    let text = extraction.text;
    let markdown = extraction.markdown;
    if (job.extraction.spliceFrames && options.frames && document.kind === 'html') {
      const spliced = await spliceFrames({ text, markdown }, extraction.links, base, page, options.frames, {
        maxFrames: MAX_FRAMES,
        timeoutMs: FRAME_TIMEOUT_MS,
        document: documentOptions,
      });
      text = spliced.text.slice(0, options.limits.maxTextChars);
      markdown = spliced.markdown;
      if (spliced.markdownCapped && !warnings.includes('markdown-capped')) warnings.push('markdown-capped');
      if (spliced.failed > 0) warnings.push('frame-unavailable');
    }

    const declared = extraction.canonical ? canonicalize(extraction.canonical, base, canonicalOptions) : null;
    return {
      kind: document.kind,
      charset: document.charset,
      canonicalUrl: declared?.ok ? declared.url : null,
      title: extraction.title,
      description: extraction.description,
      lang: extraction.lang,
      publishedAt: extraction.publishedAt,
      text,
      textMethod: extraction.textMethod,
      markdown,
      pageBlocks: extraction.pageBlocks,
      links,
      noindex,
      nofollow,
      fields,
      warnings,
      dropped,
    };
  };
}
