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

/** Collects links up to a cap, counting what the cap refused. */
export class LinkList {
  readonly links: RawLink[] = [];
  overflow = 0;

  constructor(private readonly max: number) {}

  add(link: RawLink): boolean {
    if (this.links.length >= this.max) {
      this.overflow++;
      return false;
    }
    this.links.push(link);
    return true;
  }
}
