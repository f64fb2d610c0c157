import { canonicalize } from '@crawler/core';
import { extractDocument, type DocumentOptions } from './documents/extract-document.js';
import type { RawLink } from './html/raw-link.js';

/** A frame's body as fetched. */
export interface FrameDocument {
  finalUrl: string;
  mediaType: string | null;
  charset: string | null;
  body: Buffer;
}

/**
 * Fetches the frames of a page being parsed. The composition root backs it with the fetcher's
 * client, so robots.txt, politeness and the address policy apply to frames as to any URL;
 * null means the frame could not be had (refused, failed, not HTML).
 */
export interface FrameFetcher {
  fetchFrame(url: string, signal: AbortSignal): Promise<FrameDocument | null>;
}

export interface SpliceOptions {
  maxFrames: number;
  timeoutMs: number;
  document: DocumentOptions;
}

export interface SplicedContent {
  text: string;
  /** The Markdown, the frames' after the page's. */
  markdown: string | null;
}

export interface Spliced extends SplicedContent {
  /** A frame's Markdown was left out: the page's would have passed the Markdown cap. */
  markdownCapped: boolean;
  /** Frames whose text was stitched in, and frames that could not be fetched or parsed. */
  spliced: number;
  failed: number;
}

/**
 * Frame splicing: the text of a page's frames (frame and iframe sources on the page's own host,
 * at most `maxFrames`, in document order) is stitched into the page's text, so a frameset page
 * reads as its content instead of nothing. Frames are fetched in parallel under one deadline;
 * nested framesets are not followed.
 */
export async function spliceFrames(
  content: SplicedContent,
  links: readonly RawLink[],
  base: URL,
  page: URL,
  fetcher: FrameFetcher,
  options: SpliceOptions,
): Promise<Spliced> {
  const urls: string[] = [];
  for (const link of links) {
    if (link.source !== 'frame' && link.source !== 'iframe') continue;
    const canonical = canonicalize(link.href, base);
    if (
      !canonical.ok ||
      canonical.parsed.host !== page.host ||
      urls.includes(canonical.url) ||
      canonical.url === page.href
    )
      continue;
    urls.push(canonical.url);
    if (urls.length >= options.maxFrames) break;
  }
  if (urls.length === 0) return { ...content, spliced: 0, failed: 0, markdownCapped: false };
  const signal = AbortSignal.timeout(options.timeoutMs);
  const frames = await Promise.all(
    urls.map(async (url) => {
      try {
        const frame = await fetcher.fetchFrame(url, signal);
        if (!frame) return null;
        const document = await extractDocument(
          { body: frame.body, mediaType: frame.mediaType, charset: frame.charset, url: frame.finalUrl },
          options.document,
        );
        return document.kind === 'html' ? document.extraction : null;
      } catch {
        return null;
      }
    }),
  );
  const found = frames.filter((frame) => frame !== null);
  // Whole frames only: a frame's Markdown that would pass the cap is left out.
  const markdown = content.markdown === null ? [] : [content.markdown];
  let markdownChars = content.markdown?.length ?? 0;
  let markdownCapped = false;
  for (const frame of found) {
    if (!frame.markdown) continue;
    const next = markdownChars + frame.markdown.length + 2;
    if (next > options.document.limits.maxMarkdownChars) markdownCapped = true;
    else {
      markdown.push(frame.markdown);
      markdownChars = next;
    }
  }
  return {
    text: [content.text, ...found.map((frame) => frame.text)].filter((text) => text.length > 0).join('\n'),
    markdown: markdown.filter((part) => part.length > 0).join('\n\n'),
    spliced: found.length,
    failed: frames.length - found.length,
    markdownCapped,
  };
}
