import { collapseWhitespace } from '../content/render-text.js';
import { LinkList, RAW_LINKS_PER_KEPT_LINK, type RawLink } from '../html/raw-link.js';
import { emptyExtraction, type PageExtraction } from '../page-extraction.js';
import { runXmlPass } from './xml-pass.js';

/** Atom link relations that are not the entry's page. */
const NOT_PAGE_RELS = new Set(['self', 'hub', 'enclosure', 'edit', 'replies', 'license', 'payment']);

/**
 * An RSS 2.0, RSS 1.0 (RDF) or Atom feed: each item's or entry's link (RSS `<link>` text, an Atom
 * `<link href>` that is not self/enclosure, else a permalink `<guid>`) with the item title as
 * anchor; the channel's own link too. The feed title is the page title.
 */
export function extractFeed(xml: string, maxLinks: number, maxAnchorChars: number): PageExtraction {
  const links = new LinkList(maxLinks * RAW_LINKS_PER_KEPT_LINK);
  let title: string | null = null;
  let item: { title: string | null; href: string | null; guid: string | null } | null = null;
  let capture: { field: 'title' | 'link' | 'guid'; parts: string[] } | null = null;
  let channelLink: string | null = null;
  let guidIsPermalink = true;

  const emit = (href: string | null, anchor: string | null) => {
    if (href)
      links.add({
        href,
        anchor: anchor ? anchor.slice(0, maxAnchorChars) : null,
        rel: null,
        source: 'feed',
      } satisfies RawLink);
  };

  runXmlPass(xml, {
    open(name, attributes) {
      if (name === 'item' || name === 'entry') {
        item = { title: null, href: null, guid: null };
        if (attributes['rdf:about'] && /^https?:/i.test(attributes['rdf:about'])) item.guid = attributes['rdf:about'];
      } else if (name === 'link' && attributes.href !== undefined) {
        const rel = (attributes.rel ?? 'alternate').toLowerCase();
        if (NOT_PAGE_RELS.has(rel)) return;
        if (item) item.href ??= attributes.href;
        else channelLink ??= attributes.href;
      } else if (name === 'title' || name === 'link' || name === 'guid' || name === 'id') {
        if (name === 'guid' || name === 'id')
          guidIsPermalink = (attributes.isPermaLink ?? attributes.ispermalink ?? 'true').toLowerCase() !== 'false';
        capture = { field: name === 'id' ? 'guid' : name, parts: [] };
      }
    },
    text(data) {
      capture?.parts.push(data);
    },
    close(name) {
      if (capture && (name === 'title' || name === 'link' || name === 'guid' || name === 'id')) {
        const value = collapseWhitespace(capture.parts.join('')) || null;
        if (capture.field === 'title') {
          if (item) item.title ??= value;
          else title ??= value;
        } else if (capture.field === 'link') {
          if (item) item.href ??= value;
          else channelLink ??= value;
        } else if (item && value && guidIsPermalink && /^https?:\/\//i.test(value)) item.guid ??= value;
        capture = null;
      } else if ((name === 'item' || name === 'entry') && item) {
        emit(item.href ?? item.guid, item.title);
        item = null;
      }
    },
  });
  emit(channelLink, title);
  return {
    ...emptyExtraction(links.overflow > 0 ? ['links-capped'] : []),
    title,
    links: links.links,
    linksOverflow: links.overflow,
    textMethod: 'document',
    markdown: null,
  };
}
