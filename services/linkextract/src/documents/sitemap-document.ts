import { LinkList, RAW_LINKS_PER_KEPT_LINK } from '../html/raw-link.js';
import { emptyExtraction, type PageExtraction } from '../page-extraction.js';
import { parseChangefreq, parseLastmod } from './sitemap-hints.js';
import { runXmlPass } from './xml-pass.js';

type EntryField = 'loc' | 'lastmod' | 'changefreq';

/**
 * An XML sitemap (sitemaps.org): `<url><loc>` entries are pages, `<sitemap><loc>` entries of an
 * index are further sitemaps (rel `sitemap`). Only elements directly inside the entry count, so
 * image and video locations are ignored. Each link carries the entry's `<lastmod>` and
 * `<changefreq>` (see sitemap-hints.ts for what is refused); `fetchedAt` is the sitemap's fetch,
 * against which a lastmod in the future is judged.
 */
export function extractSitemap(xml: string, maxLinks: number, fetchedAt: number = Date.now()): PageExtraction {
  const links = new LinkList(maxLinks * RAW_LINKS_PER_KEPT_LINK);
  let entry: {
    kind: 'url' | 'sitemap';
    depth: number;
    locs: string[];
    lastmod: string | null;
    changefreq: string | null;
  } | null = null;
  let depth = 0;
  let field: { name: EntryField; parts: string[] } | null = null;
  const flush = () => {
    if (!entry) return;
    const lastmod = entry.lastmod === null ? null : parseLastmod(entry.lastmod, fetchedAt);
    const changefreq = entry.changefreq === null ? null : parseChangefreq(entry.changefreq);
    for (const href of entry.locs)
      links.add({
        href,
        anchor: null,
        rel: entry.kind === 'sitemap' ? 'sitemap' : null,
        source: 'sitemap',
        lastmod,
        changefreq,
      });
    entry = null;
  };
  runXmlPass(xml, {
    open(name) {
      depth++;
      if (name === 'url' || name === 'sitemap') {
        flush();
        entry = { kind: name, depth, locs: [], lastmod: null, changefreq: null };
      } else if ((name === 'loc' || name === 'lastmod' || name === 'changefreq') && entry && depth === entry.depth + 1)
        field = { name, parts: [] };
    },
    text(data) {
      field?.parts.push(data);
    },
    close(name, implied) {
      if (field && name === field.name && entry) {
        const value = field.parts.join('').trim();
        if (field.name === 'loc') {
          if (value) entry.locs.push(value);
          // A hint cut off mid-value ("2025-07" of "2025-07-16") would read as another date.
        } else if (!implied) entry[field.name] ??= value;
        field = null;
      } else if (name === 'url' || name === 'sitemap') flush();
      depth--;
    },
  });
  // A cut-off document (capped or corrupt gzip) may end inside an entry: its locations still count.
  flush();
  return {
    ...emptyExtraction(links.overflow > 0 ? ['links-capped'] : []),
    links: links.links,
    linksOverflow: links.overflow,
    textMethod: 'document',
    markdown: null,
  };
}
