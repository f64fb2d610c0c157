import type { LinkSource } from '@crawler/core';

/** A link as written in the document, before resolution and canonicalization. */
export interface RawLink {
  href: string;
  anchor: string | null;
  rel: string | null;
  source: LinkSource;
  /** Sitemap hints of the URL (only sitemap entries carry them): lastmod in epoch ms, changefreq lowercased. */
  lastmod?: number | null;
  changefreq?: string | null;
}

/**
 * Distinct links collected per kept link: the per-page cap (LINKEXTRACT_MAX_LINKS) counts
 * distinct in-scope links after canonicalization (link-filter.ts); this bound only keeps memory
 * finite on a page of millions of distinct links, with room for the out-of-scope ones.
 */
export const RAW_LINKS_PER_KEPT_LINK = 4;

/**
 * Collects a document's links, each once (same href up to its fragment, same rel and source),
 * up to a bound of distinct links, counting what the bound refused. An index page links the same
 * pages thousands of times (Python's genindex-all: 17,251 hrefs, 425 pages); repeats must not
 * use up the bound before the page's later links are seen.
 */
export class LinkList {
  readonly links: RawLink[] = [];
  overflow = 0;
  private readonly seen = new Set<string>();

  constructor(private readonly max: number) {}

  add(link: RawLink): boolean {
    const hash = link.href.indexOf('#');
    const key = `${link.source}\0${link.rel ?? ''}\0${hash < 0 ? link.href : link.href.slice(0, hash)}`;
    if (this.seen.has(key)) return false;
    if (this.links.length >= this.max) {
      this.overflow++;
      return false;
    }
    this.seen.add(key);
    this.links.push(link);
    return true;
  }
}
