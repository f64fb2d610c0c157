import { Parser } from 'htmlparser2';

export interface RawLink {
  href: string;
  anchor: string | null;
  rel: string | null;
  source: 'a' | 'area' | 'frame' | 'iframe' | 'meta-refresh' | 'canonical' | 'link';
}

export interface ExtractedHtml {
  title: string | null;
  description: string | null;
  lang: string | null;
  baseHref: string | null;
  canonical: string | null;
  links: RawLink[];
  text: string;
  noindex: boolean;
  nofollow: boolean;
  warnings: string[];
}

export interface ExtractLimits {
  maxLinks: number;
  maxAnchorChars: number;
  maxTextChars: number;
}

/** Elements whose text is never visible. */
const HIDDEN = new Set(['script', 'style', 'noscript', 'template', 'head', 'svg', 'iframe', 'object']);
/** Elements that separate words when text is flattened. */
const BLOCK = new Set([
  'p', 'div', 'br', 'li', 'ul', 'ol', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'tr', 'td', 'th', 'table', 'section', 'article', 'header', 'footer',
  'nav', 'aside', 'main', 'blockquote', 'pre', 'hr', 'dd', 'dt', 'dl', 'figcaption', 'form', 'option', 'title',
]);
const LINK_RELS = new Set(['canonical', 'alternate', 'next', 'prev', 'previous']);

/**
 * One streaming pass over the markup (no DOM is built): links with their anchor text and rel,
 * <base href>, canonical, meta refresh, meta robots, title, description, lang and visible text.
 * Every collection is capped, so hostile pages cost bounded memory.
 */
export function extractHtml(html: string, limits: ExtractLimits): ExtractedHtml {
  const links: RawLink[] = [];
  const warnings = new Set<string>();
  const text: string[] = [];
  let textChars = 0;
  let title: string | null = null;
  let titleParts: string[] | null = null;
  let description: string | null = null;
  let lang: string | null = null;
  let baseHref: string | null = null;
  let canonical: string | null = null;
  let noindex = false;
  let nofollow = false;
  let hiddenDepth = 0;
  let anchor: { link: RawLink; parts: string[]; chars: number } | null = null;

  const addLink = (link: RawLink) => {
    if (links.length >= limits.maxLinks) {
      warnings.add('links-capped');
      return false;
    }
    links.push(link);
    return true;
  };
  const pushText = (chunk: string) => {
    if (textChars >= limits.maxTextChars) {
      warnings.add('text-capped');
      return;
    }
    text.push(chunk);
    textChars += chunk.length;
  };

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (HIDDEN.has(name)) hiddenDepth++;
        if (BLOCK.has(name)) pushText('\n');
        switch (name) {
          case 'a':
          case 'area': {
            if (attributes.href === undefined) break;
            const link: RawLink = { href: attributes.href, anchor: null, rel: attributes.rel?.toLowerCase() ?? null, source: name };
            if (addLink(link) && name === 'a') anchor = { link, parts: [], chars: 0 };
            else if (name === 'area' && attributes.alt) link.anchor = attributes.alt.slice(0, limits.maxAnchorChars);
            break;
          }
          case 'frame':
          case 'iframe':
            if (attributes.src) addLink({ href: attributes.src, anchor: null, rel: null, source: name });
            break;
          case 'base':
            if (baseHref === null && attributes.href) baseHref = attributes.href;
            break;
          case 'link': {
            const rels = (attributes.rel ?? '').toLowerCase().split(/\s+/);
            if (!attributes.href) break;
            if (rels.includes('canonical') && canonical === null) canonical = attributes.href;
            const rel = rels.filter((value) => LINK_RELS.has(value)).join(' ');
            if (rel) addLink({ href: attributes.href, anchor: null, rel, source: rels.includes('canonical') ? 'canonical' : 'link' });
            break;
          }
          case 'meta': {
            const key = (attributes.name ?? attributes['http-equiv'] ?? attributes.property ?? '').toLowerCase();
            const content = attributes.content ?? '';
            if (key === 'robots') {
              const directives = content.toLowerCase();
              if (/\b(noindex|none)\b/.test(directives)) noindex = true;
              if (/\b(nofollow|none)\b/.test(directives)) nofollow = true;
            } else if (key === 'description' && description === null) {
              description = collapse(content).slice(0, 1000) || null;
            } else if (key === 'refresh') {
              const target = content.match(/url\s*=\s*['"]?([^'"]+)/i)?.[1];
              if (target) addLink({ href: target.trim(), anchor: null, rel: null, source: 'meta-refresh' });
            }
            break;
          }
          case 'html':
            if (attributes.lang) lang = attributes.lang.trim().slice(0, 35) || null;
            break;
          case 'title':
            if (title === null && titleParts === null) titleParts = [];
            break;
        }
      },
      ontext(data) {
        if (titleParts) {
          titleParts.push(data);
          return;
        }
        if (hiddenDepth > 0) return;
        pushText(data);
        if (anchor && anchor.chars < limits.maxAnchorChars) {
          anchor.parts.push(data);
          anchor.chars += data.length;
        }
      },
      onclosetag(name) {
        if (HIDDEN.has(name) && hiddenDepth > 0) hiddenDepth--;
        if (BLOCK.has(name)) pushText('\n');
        if (name === 'title' && titleParts) {
          title = collapse(titleParts.join('')).slice(0, 1000) || null;
          titleParts = null;
        }
        if (name === 'a' && anchor) {
          anchor.link.anchor = collapse(anchor.parts.join('')).slice(0, limits.maxAnchorChars) || null;
          anchor = null;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);

  return { title, description, lang, baseHref, canonical, links, text: collapse(text.join('')), noindex, nofollow, warnings: [...warnings] };
}

/** Collapses runs of spaces, keeps one newline between blocks. */
export function collapse(value: string): string {
  return value
    .replace(/[ \t\f\r\u00a0]+/g, ' ')
    .replace(/ ?\n[\s]*/g, '\n')
    .trim();
}
