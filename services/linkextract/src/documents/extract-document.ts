import { decodeText, xmlDeclaredCharset } from '@crawler/core';
import { extractHtml, type ExtractLimits, type ExtractOptions } from '../extract-html.js';
import { emptyExtraction, type PageExtraction } from '../page-extraction.js';
import { documentKind, type DocumentKind } from './document-kind.js';
import { extractFeed } from './feed-document.js';
import { gunzipCapped } from './gunzip-capped.js';
import { extractSitemap } from './sitemap-document.js';
import { extractPlainText } from './text-document.js';

export interface DocumentInput {
  /** The body as the server sent it (bus compression undone). */
  body: Buffer;
  mediaType: string | null;
  charset: string | null;
  /** When the body was fetched, epoch ms (default now): a sitemap lastmod later than this is ignored. */
  fetchedAt?: number;
  /** The URL the body came from: the Markdown's links and images are made absolute against it. */
  url?: string;
}

export interface DocumentOptions {
  limits: ExtractLimits;
  extract: ExtractOptions;
  /** Body bytes parsed, before and after inflating a gzipped document. */
  maxInputBytes: number;
}

export interface ExtractedDocument {
  kind: DocumentKind;
  /** The encoding the text was decoded with (WHATWG name), null for undecoded bodies. */
  charset: string | null;
  /** The decoded text, for steps that need the markup again (extraction rules, frames). */
  source: string;
  extraction: PageExtraction;
}

/**
 * Any fetched body to links and text: HTML, RSS/Atom feeds, XML sitemaps (plain or gzipped,
 * index files included) and plain text. Oversized input is cut, binary bodies are refused;
 * both are named in the warnings, never thrown.
 */
export async function extractDocument(input: DocumentInput, options: DocumentOptions): Promise<ExtractedDocument> {
  const warnings: string[] = [];
  let bytes = input.body;
  if (bytes.length > options.maxInputBytes) {
    bytes = bytes.subarray(0, options.maxInputBytes);
    warnings.push('input-capped');
  }
  let kind = documentKind(input.mediaType, bytes, input.charset);
  let charset = input.charset;
  if (kind === 'gzip') {
    const inflated = await gunzipCapped(bytes, options.maxInputBytes);
    if (inflated.capped) warnings.push('gzip-capped');
    if (inflated.corrupt) warnings.push('gzip-corrupt');
    bytes = inflated.bytes;
    kind = documentKind('application/xml', bytes);
    if (kind === 'gzip') kind = 'binary';
    // The recorded charset described the gzip file, not what is inside it.
    charset = null;
  }
  if (kind === 'binary')
    return { kind, charset: null, source: '', extraction: emptyExtraction([...warnings, 'binary-content']) };
  if (kind === 'other')
    return { kind, charset: null, source: '', extraction: emptyExtraction([...warnings, 'unsupported-document']) };

  const decoded = decodeText(
    bytes,
    charset ?? (kind === 'feed' || kind === 'sitemap' ? xmlDeclaredCharset(bytes) : null),
  );
  const extraction = extractByKind(kind, decoded.text, options, input.fetchedAt ?? Date.now(), input.url ?? null);
  extraction.warnings.unshift(...warnings);
  return { kind, charset: decoded.charset, source: decoded.text, extraction };
}

function extractByKind(
  kind: Exclude<DocumentKind, 'binary' | 'other' | 'gzip'>,
  text: string,
  options: DocumentOptions,
  fetchedAt: number,
  url: string | null,
): PageExtraction {
  const { limits } = options;
  switch (kind) {
    case 'html':
      return extractHtml(text, limits, options.extract, url);
    case 'feed':
      return extractFeed(text, limits.maxLinks, limits.maxAnchorChars);
    case 'sitemap':
      return extractSitemap(text, limits.maxLinks, fetchedAt);
    case 'text':
      return extractPlainText(text, limits.maxLinks, limits.maxTextChars);
  }
}
