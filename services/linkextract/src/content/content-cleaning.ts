import { isEmbeddedPost } from './boilerplate-signals.js';
import { BLOCK_TAGS, isNode, type ContentNode } from './content-node.js';
import { MIN_PARAGRAPH_CHARS } from './container-scores.js';
import { descendants, linkDensity } from './node-stats.js';
import { renderText } from './render-text.js';

/**
 * Removes lists, tables and divs inside the content that look like furniture: negative class
 * signals, mostly links, more list items than paragraphs, or almost no text.
 */
export function cleanConditionally(
  part: ContentNode,
  removed: Set<ContentNode>,
  scores: Map<ContentNode, number>,
  weigh: (node: ContentNode) => number,
): void {
  const counts = tagCounts(part, removed);
  const stack = [part];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (removed.has(node)) continue;
    if (
      node !== part &&
      ((isCleanable(node.tag) && looksLikeFurniture(node, counts.get(node)!, scores, weigh)) || isLinkLine(node))
    ) {
      removed.add(node);
      continue;
    }
    for (const child of node.children) if (isNode(child)) stack.push(child);
  }
}

/** A short paragraph that is mostly a link: "READ MORE: …", teasers between the paragraphs. */
function isLinkLine(node: ContentNode): boolean {
  return (
    LINE_TAGS.has(node.tag) &&
    node.textChars > 0 &&
    node.textChars < LINK_LINE_MAX_CHARS &&
    linkDensity(node) >= LINK_LINE_DENSITY
  );
}

const LINE_TAGS: ReadonlySet<string> = new Set(['p', 'li', 'dd', 'dt', 'h2', 'h3', 'h4', 'h5', 'h6']);
const LINK_LINE_MAX_CHARS = 300;
const LINK_LINE_DENSITY = 0.6;

function isCleanable(tag: string): boolean {
  return (
    tag === 'div' ||
    tag === 'ul' ||
    tag === 'ol' ||
    tag === 'table' ||
    tag === 'section' ||
    tag === 'form' ||
    tag === 'fieldset'
  );
}

interface TagCounts {
  p: number;
  img: number;
  li: number;
}

function looksLikeFurniture(
  node: ContentNode,
  counts: TagCounts,
  scores: Map<ContentNode, number>,
  weigh: (node: ContentNode) => number,
): boolean {
  if (isEmbeddedPost(node)) return false;
  const weight = weigh(node);
  if (weight + (scores.get(node) ?? 0) < 0) return true;
  if (node.commas >= 10) return false;
  const isList = node.tag === 'ul' || node.tag === 'ol';
  const density = linkDensity(node);
  if (counts.img > 1 && counts.p / counts.img < 0.5) return true;
  if (!isList && counts.li - 100 > counts.p) return true;
  if (!isList && node.textChars < MIN_PARAGRAPH_CHARS && (counts.img === 0 || counts.img > 2)) return true;
  if (!isList && weight < 25 && density > 0.2) return true;
  if (weight >= 25 && density > 0.5) return true;
  if (isList && density > 0.5) return true;
  return false;
}

/** p, img and li elements below each element of `part`, counted bottom-up in one walk. */
function tagCounts(part: ContentNode, removed: Set<ContentNode>): Map<ContentNode, TagCounts> {
  const nodes = descendants(part, (node) => removed.has(node));
  const counts = new Map<ContentNode, TagCounts>();
  for (let i = nodes.length - 1; i >= 0; i--) {
    const node = nodes[i]!;
    const own: TagCounts = { p: 0, img: 0, li: 0 };
    for (const child of node.children) {
      if (!isNode(child)) continue;
      const below = counts.get(child);
      if (!below) continue;
      own.p += below.p + (child.tag === 'p' ? 1 : 0);
      own.img += below.img + (child.tag === 'img' ? 1 : 0);
      own.li += below.li + (child.tag === 'li' ? 1 : 0);
    }
    counts.set(node, own);
  }
  return counts;
}

/** The article's headline repeats the page title; main text is the body below it. */
export function removeTitleHeading(parts: ContentNode[], title: string | null, removed: Set<ContentNode>): void {
  if (!title) return;
  const normalizedTitle = normalize(title);
  for (const part of parts) {
    const stack = [part];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (removed.has(node)) continue;
      if (node.tag === 'h1' || node.tag === 'h2') {
        const heading = normalize(renderText([node]));
        if (heading.length > 0 && normalizedTitle.includes(heading)) removed.add(node);
        continue;
      }
      for (const child of node.children) if (isNode(child) && BLOCK_TAGS.has(child.tag)) stack.push(child);
    }
  }
}

function normalize(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}
