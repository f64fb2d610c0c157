import { collapseWhitespace } from '../content/render-text.js';
import { findTextUrls } from '../html/text-links.js';
import { LinkList, RAW_LINKS_PER_KEPT_LINK } from '../html/raw-link.js';
import { emptyExtraction, type PageExtraction } from '../page-extraction.js';

/** Plain text: the text itself (capped) and the http(s) URLs written in it. */
export function extractPlainText(text: string, maxLinks: number, maxTextChars: number): PageExtraction {
  const bound = maxLinks * RAW_LINKS_PER_KEPT_LINK;
  const links = new LinkList(bound);
  for (const href of findTextUrls(text, bound + 1)) links.add({ href, anchor: null, rel: null, source: 'text' });
  const warnings: string[] = [];
  if (links.overflow > 0) warnings.push('links-capped');
  if (text.length > maxTextChars) warnings.push('text-capped');
  return {
    ...emptyExtraction(warnings),
    text: collapseWhitespace(text.slice(0, maxTextChars)),
    links: links.links,
    linksOverflow: links.overflow,
    textMethod: 'document',
    markdown: null,
  };
}
