import { collapseWhitespace } from '../content/render-text.js';
import type { HtmlCollector } from '@crawler/core/html';

export interface HeadMeta {
  title: string | null;
  /** `<meta name="description">`, else og:description. */
  description: string | null;
  /** `<html lang>`, else Content-Language or og:locale. */
  lang: string | null;
  baseHref: string | null;
  canonical: string | null;
  /** Raw content of `<meta name="robots">` tags, joined. */
  robots: string;
  /** Every `<meta property|name>` value that feeds fields or dates: og:*, article:*, date names. */
  metas: Map<string, string[]>;
}

const MAX_META_CHARS = 1000;
const MAX_METAS = 200;

/** Title, meta tags, `<base>`, canonical and language, from the same pass as everything else. */
export function createHeadCollector(): HtmlCollector & { result(): HeadMeta } {
  let title: string | null = null;
  let titleParts: string[] | null = null;
  let svgDepth = 0;
  let lang: string | null = null;
  let baseHref: string | null = null;
  let canonical: string | null = null;
  const robots: string[] = [];
  const metas = new Map<string, string[]>();
  let metaCount = 0;

  const addMeta = (key: string, value: string) => {
    if (metaCount >= MAX_METAS) return;
    const clean = collapseWhitespace(value).slice(0, MAX_META_CHARS);
    if (!clean) return;
    metaCount++;
    const list = metas.get(key);
    if (list) list.push(clean);
    else metas.set(key, [clean]);
  };

  return {
    open(name, attributes) {
      switch (name) {
        case 'svg':
          svgDepth++;
          break;
        case 'title':
          // An SVG <title> is a tooltip, not the page title.
          if (title === null && titleParts === null && svgDepth === 0) titleParts = [];
          break;
        case 'html':
          if (attributes.lang) lang = attributes.lang.trim().slice(0, 35) || null;
          break;
        case 'base':
          if (baseHref === null && attributes.href) baseHref = attributes.href;
          break;
        case 'link':
          if (canonical === null && attributes.href && /(?:^|\s)canonical(?:\s|$)/i.test(attributes.rel ?? ''))
            canonical = attributes.href;
          break;
        case 'meta': {
          const content = attributes.content;
          if (content === undefined) break;
          const key = (attributes.property ?? attributes.name ?? attributes['http-equiv'] ?? attributes.itemprop ?? '')
            .toLowerCase()
            .trim();
          if (!key) break;
          if (key === 'robots') robots.push(content);
          else addMeta(key, content);
          break;
        }
      }
    },
    text(data) {
      titleParts?.push(data);
    },
    close(name) {
      if (name === 'svg' && svgDepth > 0) svgDepth--;
      if (name === 'title' && titleParts) {
        title = collapseWhitespace(titleParts.join('')).slice(0, MAX_META_CHARS) || null;
        titleParts = null;
      }
    },
    result() {
      const first = (key: string) => metas.get(key)?.[0] ?? null;
      return {
        title,
        description: first('description') ?? first('og:description'),
        lang: lang ?? first('content-language')?.split(',')[0]?.trim() ?? first('og:locale')?.replace('_', '-') ?? null,
        baseHref,
        canonical,
        robots: robots.join(','),
        metas,
      };
    },
  };
}
