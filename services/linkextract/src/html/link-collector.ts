import { collapseWhitespace } from '../content/render-text.js';
import type { HtmlCollector } from '@crawler/core/html';
import type { LinkList, RawLink } from './raw-link.js';

const LINK_RELS = new Set(['canonical', 'alternate', 'next', 'prev', 'previous']);
const FEED_TYPES = /^application\/(?:rss|atom)\+xml$/i;

export interface LinkCollectorOptions {
  maxAnchorChars: number;
  /** Keep `<link rel=alternate>` to RSS/Atom feeds (only useful when the job fetches feeds). */
  feedLinks: boolean;
}

/**
 * Links of the markup as the parser meets them: a and area href (anchor text, or the image alt
 * when a link has no text), frame and iframe src, link rel canonical/alternate/next/prev and
 * meta refresh. Anchor text is collapsed and capped while it streams in.
 */
export function createLinkCollector(list: LinkList, options: LinkCollectorOptions): HtmlCollector {
  let anchor: { link: RawLink; parts: string[]; chars: number; alt: string | null } | null = null;

  const finishAnchor = () => {
    if (!anchor) return;
    const text = collapseWhitespace(anchor.parts.join('')) || anchor.alt;
    anchor.link.anchor = text ? text.slice(0, options.maxAnchorChars) : null;
    anchor = null;
  };

  return {
    open(name, attributes) {
      switch (name) {
        case 'a': {
          finishAnchor();
          const href = attributes.href;
          if (href === undefined) break;
          const link: RawLink = { href, anchor: null, rel: attributes.rel?.toLowerCase().trim() || null, source: 'a' };
          if (list.add(link)) anchor = { link, parts: [], chars: 0, alt: null };
          break;
        }
        case 'area':
          if (attributes.href !== undefined) {
            const alt = collapseWhitespace(attributes.alt ?? '').slice(0, options.maxAnchorChars);
            list.add({
              href: attributes.href,
              anchor: alt || null,
              rel: attributes.rel?.toLowerCase().trim() || null,
              source: 'area',
            });
          }
          break;
        case 'img':
          if (anchor && anchor.alt === null && attributes.alt)
            anchor.alt = collapseWhitespace(attributes.alt).slice(0, options.maxAnchorChars) || null;
          break;
        case 'frame':
        case 'iframe':
          if (attributes.src) list.add({ href: attributes.src, anchor: null, rel: null, source: name });
          break;
        case 'link': {
          if (!attributes.href) break;
          const rels = (attributes.rel ?? '').toLowerCase().split(/\s+/);
          const rel = rels.filter((value) => LINK_RELS.has(value)).join(' ');
          if (!rel) break;
          if (
            rels.includes('alternate') &&
            attributes.type &&
            !/html/i.test(attributes.type) &&
            !(options.feedLinks && FEED_TYPES.test(attributes.type.trim()))
          )
            break;
          list.add({
            href: attributes.href,
            anchor: null,
            rel,
            source: rels.includes('canonical') ? 'canonical' : 'link',
          });
          break;
        }
        case 'meta': {
          if ((attributes['http-equiv'] ?? '').toLowerCase() !== 'refresh') break;
          const target = (attributes.content ?? '').match(/url\s*=\s*['"]?([^'"]+)/i)?.[1];
          if (target) list.add({ href: target.trim(), anchor: null, rel: null, source: 'meta-refresh' });
          break;
        }
      }
    },
    text(data) {
      // Raw text shrinks when whitespace collapses: keep four times the cap, then cut after collapsing.
      if (anchor && anchor.chars < options.maxAnchorChars * 4) {
        anchor.parts.push(data);
        anchor.chars += data.length;
      }
    },
    close(name) {
      if (name === 'a') finishAnchor();
    },
  };
}
