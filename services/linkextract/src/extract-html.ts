import { createContentTreeBuilder } from './content/content-tree-builder.js';
import { extractMainContent } from './content/main-content.js';
import { renderMarkdown } from './content/render-markdown.js';
import { documentBase } from './html/document-base.js';
import { createHeadCollector } from './html/head-collector.js';
import { createBlockCollector, runHtmlPass } from '@crawler/core/html';
import { createLinkCollector } from './html/link-collector.js';
import { LinkList, RAW_LINKS_PER_KEPT_LINK } from './html/raw-link.js';
import type { PageExtraction } from './page-extraction.js';
import { createTextLinkCollector } from './html/text-link-collector.js';
import { parseRobotsDirectives } from './robots-directives.js';
import { createJsonLdCollector } from './structured/json-ld-collector.js';
import { readJsonLd } from './structured/json-ld.js';
import { createMicrodataCollector } from './structured/microdata-collector.js';
import { findPublishedAt } from './structured/publish-date.js';

export interface ExtractLimits {
  maxLinks: number;
  maxAnchorChars: number;
  /** Text characters kept from the page (in the content tree, hence in the main text). */
  maxTextChars: number;
  /** Elements kept in the content tree. */
  maxElements: number;
  /** Nesting kept in the content tree. */
  maxNesting: number;
  /** Time budget of the parsing pass; the rest of a slower document is not parsed. */
  maxParseMs: number;
  /** Characters of Markdown kept: it ends at the last whole block that fits. */
  maxMarkdownChars: number;
}

export interface ExtractOptions {
  /** Follow URLs written as plain text. */
  textLinks: boolean;
  /** Keep `<link rel=alternate>` to feeds. */
  feedLinks: boolean;
  /** The crawler's product token: `<meta name=TOKEN>` counts like `<meta name=robots>`. */
  robotsAgent: string | null;
}

/** No real page nests this deep; hostile ones stop here (see runHtmlPass). */
const MAX_OPEN_ELEMENTS = 10_000;

export const defaultExtractOptions: ExtractOptions = Object.freeze({
  textLinks: true,
  feedLinks: false,
  robotsAgent: null,
});

/**
 * One streaming pass over the markup feeds every collector: links (with anchor text and rel),
 * head metadata, JSON-LD, microdata, URLs in text, the content tree and the blocks dedup's site
 * templates read (so dedup does not parse the page again). Main-content
 * extraction then walks the tree, and the chosen content is rendered as text and as Markdown,
 * whose links and images are made absolute against `pageUrl` (and `<base href>`); without a page
 * URL they stay as written. Every collection is capped, so hostile pages cost bounded memory;
 * each cap that was hit is named in `warnings`.
 */
export function extractHtml(
  html: string,
  limits: ExtractLimits,
  options: ExtractOptions = defaultExtractOptions,
  pageUrl: string | null = null,
): PageExtraction {
  const warnings = new Set<string>();
  const warn = (reason: string) => warnings.add(reason);
  const links = new LinkList(limits.maxLinks * RAW_LINKS_PER_KEPT_LINK);
  const textLinks = new LinkList(limits.maxLinks * RAW_LINKS_PER_KEPT_LINK);
  const head = createHeadCollector();
  const jsonLd = createJsonLdCollector(warn);
  const microdata = createMicrodataCollector();
  const tree = createContentTreeBuilder(
    { maxNodes: limits.maxElements, maxDepth: limits.maxNesting, maxTextChars: limits.maxTextChars },
    warn,
  );
  const textLinkCollector = options.textLinks ? createTextLinkCollector(textLinks) : null;
  const blocks = createBlockCollector();
  const collectors = [
    createLinkCollector(links, { maxAnchorChars: limits.maxAnchorChars, feedLinks: options.feedLinks }),
    head,
    jsonLd,
    microdata,
    tree,
    blocks,
  ];
  if (textLinkCollector) collectors.push(textLinkCollector);
  runHtmlPass(html, collectors, { maxOpenElements: MAX_OPEN_ELEMENTS, maxParseMs: limits.maxParseMs, warn });
  textLinkCollector?.flush();

  const meta = head.result();
  const structured = readJsonLd(jsonLd.blocks);
  if (structured.invalidBlocks > 0) warn('jsonld-invalid');
  for (const link of [...structured.links, ...textLinks.links]) links.add(link);
  const linksOverflow = links.overflow + textLinks.overflow;
  if (linksOverflow > 0) warn('links-capped');

  const fields = new Map<string, string[]>();
  for (const [key, values] of meta.metas)
    if (key.startsWith('og:') || key.startsWith('article:')) fields.set(key, values);
  for (const [key, values] of structured.fields) fields.set(key, values);
  for (const [key, values] of microdata.fields) fields.set(key, values);

  const agentMeta = options.robotsAgent ? (meta.metas.get(options.robotsAgent.toLowerCase()) ?? []) : [];
  const robots = parseRobotsDirectives([meta.robots, ...agentMeta]);
  const main = extractMainContent(tree.root, meta.title);
  // Block separators come on top of the capped tree text; the cap holds for the result too.
  if (main.text.length > limits.maxTextChars) warn('text-capped');
  const markdown = renderMarkdown(main.parts, (node) => main.removed.has(node), {
    resolveUrl: urlResolver(meta.baseHref, pageUrl),
    maxChars: limits.maxMarkdownChars,
  });
  if (markdown.capped) warn('markdown-capped');
  return {
    title: meta.title,
    description: meta.description,
    lang: meta.lang,
    baseHref: meta.baseHref,
    canonical: meta.canonical,
    links: links.links,
    linksOverflow,
    text: main.text.slice(0, limits.maxTextChars),
    textMethod: main.method,
    markdown: markdown.markdown,
    pageBlocks: blocks.result(),
    noindex: robots.noindex,
    nofollow: robots.nofollow,
    fields,
    publishedAt: findPublishedAt({ jsonLd: structured.datePublished, metas: meta.metas, microdata: microdata.fields }),
    warnings: [...warnings],
  };
}

/** Schemes a reader of the Markdown can follow; anything else (javascript:, data:) is left as text. */
const LINK_SCHEMES: ReadonlySet<string> = new Set(['http:', 'https:', 'mailto:', 'ftp:']);
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** Resolves links and images of the Markdown against the document's base, as link extraction does. */
function urlResolver(baseHref: string | null, pageUrl: string | null): (href: string) => string | null {
  let base: URL | null = null;
  try {
    base = pageUrl ? documentBase(baseHref, new URL(pageUrl)) : null;
  } catch {
    base = null;
  }
  // Without a base a relative link stays as written; one of another scheme is still left out.
  if (!base)
    return (href) => (href !== '' && LINK_SCHEMES.has(SCHEME.exec(href)?.[0].toLowerCase() ?? 'http:') ? href : null);
  return (href) => {
    try {
      const url = new URL(href, base);
      return LINK_SCHEMES.has(url.protocol) ? url.href : null;
    } catch {
      return null;
    }
  };
}
