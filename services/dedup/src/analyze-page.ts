import { decodeText, rawBody, type PageBlock, type PageBlocks } from '@crawler/core';
import { readBlocks } from '@crawler/core/html';
import { contentDigest, hexDigest, type DigestAlgorithm } from './content-digest.js';
import { fingerprintText, type TextFingerprint } from './fingerprint/text-fingerprint.js';
import { isMarkup, isMedia } from './content-kind.js';
import { denoiseText } from './template/denoise.js';
import type { SiteTemplate } from './template/site-template.js';

/** The fields of a parsed (or stored) page that dedup reads. */
export interface PageContent {
  title: string | null;
  text: string;
  lang: string | null;
  contentType: string | null;
  charset: string | null;
  body: Buffer;
  bodyEncoding: string;
  /** Blocks link extraction found in its pass; without them (a stored page, an older message) the body is parsed here. */
  pageBlocks?: PageBlocks | null;
}

export interface PageAnalysis {
  media: boolean;
  rawDigest: string;
  /** Digest of title and de-noised main text (of the raw body for media and near-empty pages). */
  digest: string;
  /** The main text with the site template's lines removed. */
  text: string;
  blocks: PageBlock[];
  /** Characters of visible text on the whole page (of the text, for a page without markup): how big the page is. */
  pageChars: number;
  /** null for media: bytes are all there is to compare. Computed on first use: an unchanged page never needs it. */
  readonly fingerprint: TextFingerprint | null;
}

/** Everything dedup computes from one page and its site's template; no I/O. */
export function analyzePage(
  page: PageContent,
  template: SiteTemplate | null,
  algorithm: DigestAlgorithm,
): PageAnalysis {
  const raw = rawBody(page.body, page.bodyEncoding);
  const rawDigest = hexDigest(algorithm, raw);
  if (isMedia(page.contentType))
    return { media: true, rawDigest, digest: rawDigest, text: '', blocks: [], pageChars: 0, fingerprint: null };
  const { blocks, textChars } = isMarkup(page.contentType)
    ? (page.pageBlocks ?? readBlocks(decodeText(raw, page.charset).text))
    : { blocks: [], textChars: page.text.length };
  const text = denoiseText(page.text, blocks, template);
  let fingerprint: TextFingerprint | undefined;
  return {
    media: false,
    rawDigest,
    digest: contentDigest(algorithm, page.title, text, raw),
    text,
    blocks,
    pageChars: textChars,
    get fingerprint() {
      return (fingerprint ??= fingerprintText(page.title, text, page.lang, template?.titleParts));
    },
  };
}
