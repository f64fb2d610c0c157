import type { PageBlocks } from '@crawler/core';
import type { RawLink } from './html/raw-link.js';

export type { RawLink } from './html/raw-link.js';

/** What extraction found in one document, whatever its kind, before links are resolved and scoped. */
export interface PageExtraction {
  title: string | null;
  description: string | null;
  lang: string | null;
  baseHref: string | null;
  canonical: string | null;
  links: RawLink[];
  /** Links past the per-page cap, dropped. */
  linksOverflow: number;
  /** The main text (boilerplate removed for HTML). */
  text: string;
  /** How the text was found: a scored HTML container, the whole page, or a non-HTML document. */
  textMethod: 'scored' | 'page' | 'document' | 'none';
  /** The main content as Markdown (HTML only; null for other documents). */
  markdown: string | null;
  /** The page cut into blocks for dedup's site templates (HTML only; null for other documents). */
  pageBlocks: PageBlocks | null;
  /** From the document itself (meta robots); the stage adds X-Robots-Tag. */
  noindex: boolean;
  nofollow: boolean;
  /** Structured fields: `og:*`, `article:*`, `jsonld:*`, `microdata:*`, and the rule file's. */
  fields: Map<string, string[]>;
  publishedAt: number | null;
  /** Caps that were hit and inputs that were refused, by reason. */
  warnings: string[];
}

/** A document that yields nothing, for the reasons given. */
export function emptyExtraction(warnings: string[]): PageExtraction {
  return {
    title: null,
    description: null,
    lang: null,
    baseHref: null,
    canonical: null,
    links: [],
    linksOverflow: 0,
    text: '',
    textMethod: 'none',
    markdown: null,
    pageBlocks: null,
    noindex: false,
    nofollow: false,
    fields: new Map(),
    publishedAt: null,
    warnings,
  };
}
