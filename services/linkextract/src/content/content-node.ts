import { NON_TEXT_TAGS } from '@crawler/core/html';

/**
 * A light element tree, built during the one parsing pass for main-content extraction: tag,
 * id/class signature, children (elements and text), and statistics filled in afterwards.
 * It holds no attributes beyond what the scorer and the Markdown renderer read, so it costs far
 * less than a full DOM.
 */
export interface ContentNode {
  tag: string;
  /** Lowercased `id` and `class`, space separated: the class/id signals read this. */
  signature: string;
  /** Lowercased `id` (also the start of `signature`). */
  id: string;
  role: string | null;
  itemprop: string | null;
  /** hidden attribute, aria-hidden="true" or an inline display:none / visibility:hidden. */
  hidden: boolean;
  /** A link's href, an image's src (its data-src when src is missing or inline data), as written. */
  url: string | null;
  /** An image's alt text. */
  alt: string | null;
  parent: ContentNode | null;
  children: ContentChild[];
  /** Visible characters below this node, whitespace not counted. */
  textChars: number;
  /** Of those, characters inside links. */
  linkChars: number;
  commas: number;
}

export type ContentChild = ContentNode | string;

export function createNode(
  tag: string,
  parent: ContentNode | null,
  attributes: Record<string, string> = {},
): ContentNode {
  const id = attributes.id ?? '';
  const cls = attributes.class ?? '';
  const style = attributes.style;
  return {
    tag,
    signature: id || cls ? `${id} ${cls}`.toLowerCase().slice(0, 300) : '',
    id: id.toLowerCase(),
    role: attributes.role?.toLowerCase() ?? null,
    itemprop: attributes.itemprop?.toLowerCase() ?? null,
    hidden:
      attributes.hidden !== undefined ||
      attributes['aria-hidden'] === 'true' ||
      (style !== undefined && /(?:display\s*:\s*none|visibility\s*:\s*hidden)/i.test(style)),
    url: tag === 'a' ? (attributes.href ?? null) : tag === 'img' ? imageSource(attributes) : null,
    alt: tag === 'img' ? (attributes.alt ?? null) : null,
    parent,
    children: [],
    textChars: 0,
    linkChars: 0,
    commas: 0,
  };
}

/** Lazy-loading pages put a placeholder (often inline data) in src and the image in data-src. */
function imageSource(attributes: Record<string, string>): string | null {
  const src = attributes.src;
  if (src && !src.startsWith('data:')) return src;
  return attributes['data-src'] ?? src ?? null;
}

/** Elements whose content is never page text, and media and inputs: not materialized at all. */
export const SKIPPED_TAGS: ReadonlySet<string> = new Set([
  ...NON_TEXT_TAGS,
  'canvas',
  'video',
  'audio',
  'datalist',
  'input',
]);

export function isNode(child: ContentChild): child is ContentNode {
  return typeof child !== 'string';
}
