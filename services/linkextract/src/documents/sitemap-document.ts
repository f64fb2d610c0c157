import { LinkList } from '../html/raw-link.js';
import { emptyExtraction, type PageExtraction } from '../page-extraction.js';
import { runXmlPass } from './xml-pass.js';

/**
 * An XML sitemap (sitemaps.org): `<url><loc>` entries are pages, `<sitemap><loc>` entries of an
 * index are further sitemaps (rel `sitemap`). Only a `<loc>` directly inside the entry counts, so
 * image and video locations are ignored.
 */
export function extractSitemap(xml: string, maxLinks: number): PageExtraction {
  const links = new LinkList(maxLinks);
  let entry: 'url' | 'sitemap' | null = null;
  let entryDepth = 0;
  let depth = 0;
  let loc: string[] | null = null;
  runXmlPass(xml, {
    open(name) {
      depth++;
      if (name === 'url' || name === 'sitemap') {
        entry = name;
        entryDepth = depth;
      } else if (name === 'loc' && entry && depth === entryDepth + 1) loc = [];
    },
    text(data) {
      loc?.push(data);
    },
    close(name) {
      if (name === 'loc' && loc) {
        const href = loc.join('').trim();
        if (href) links.add({ href, anchor: null, rel: entry === 'sitemap' ? 'sitemap' : null, source: 'sitemap' });
        loc = null;
      } else if (name === 'url' || name === 'sitemap') entry = null;
      depth--;
    },
  });
  return { ...emptyExtraction(links.overflow > 0 ? ['links-capped'] : []), links: links.links, linksOverflow: links.overflow, textMethod: 'document' };
}
