import { isEmbeddedPost } from './boilerplate-signals.js';
import { BLOCK_TAGS } from '@crawler/core/html';
import { isNode, type ContentNode } from './content-node.js';
import { contains } from './container-choice.js';
import type { ContentKind } from './content-shape.js';
import { opensWithHeading } from './section-heading.js';
import { MIN_PARAGRAPH_CHARS } from './container-scores.js';
import { descendants, linkDensity } from './node-stats.js';
import { renderText } from './render-text.js';

/**
 * Removes lists, tables and divs inside the content that look like furniture: negative class
 * signals, mostly links, more list items than paragraphs, or almost no text. In an index, and in a
 * document up to its last paragraph of prose, link lists, short lines and link-dense notes are its
 * table of contents, version notes and cross-references: there only what class words or an image
 * gallery mark goes. What trails a document is judged as in a story (more stories, related links).
 */
export function cleanConditionally(
  part: ContentNode,
  removed: Set<ContentNode>,
  scores: Map<ContentNode, number>,
  weigh: (node: ContentNode) => number,
  kind: ContentKind = 'story',
): void {
  const { counts, lastProse } = tagCounts(part, removed);
  const inBody = (node: ContentNode) =>
    lastProse !== null && (counts.get(node)!.order < lastProse.order || contains(lastProse.node, node));
  // A section after the last prose that repeats the form of one before it ("See Also" after
  // "Description") is one more section of the document. Forms are collected once per parent.
  const bodyForms = new Map<ContentNode, Set<string>>();
  const formsIn = (parent: ContentNode) => {
    let forms = bodyForms.get(parent);
    if (!forms) {
      forms = new Set();
      for (const child of parent.children)
        if (isNode(child) && !removed.has(child) && inBody(child)) forms.add(formOf(child));
      bodyForms.set(parent, forms);
    }
    return forms;
  };
  const lastSection = (node: ContentNode) =>
    node.parent !== null && formsIn(node.parent).has(formOf(node)) && opensWithHeading(node, removed);
  // Leniency passes from such a section to what it holds: its short lines and links. (Two
  // stacks side by side: no pair allocated per element.)
  const stack: ContentNode[] = [part];
  const inSections: boolean[] = [false];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const inSection = inSections.pop()!;
    if (removed.has(node)) continue;
    const section = inSection || (kind === 'document' && !inBody(node) && lastSection(node));
    const lenient = kind === 'index' || (kind === 'document' && (section || inBody(node)));
    if (
      node !== part &&
      ((isCleanable(node.tag) && looksLikeFurniture(node, counts.get(node)!, scores, weigh, lenient)) ||
        (isLinkLine(node) && !lenient))
    ) {
      removed.add(node);
      continue;
    }
    for (const child of node.children) {
      if (!isNode(child)) continue;
      stack.push(child);
      inSections.push(section);
    }
  }
}

/** Tag and classes: what sibling sections of one document share. */
function formOf(node: ContentNode): string {
  return `${node.tag} ${node.signature.slice(node.id.length + 1)}`;
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
  /** Position in document order within the part. */
  order: number;
}

function looksLikeFurniture(
  node: ContentNode,
  counts: TagCounts,
  scores: Map<ContentNode, number>,
  weigh: (node: ContentNode) => number,
  lenient: boolean,
): boolean {
  if (isEmbeddedPost(node)) return false;
  const weight = weigh(node);
  const density = linkDensity(node);
  // A list starts below zero for being a list. That alone makes it furniture only when it is
  // link-heavy (points are part of a story), and where cleaning is lenient only its class does.
  if (weight + (scores.get(node) ?? 0) < 0 && (weight < 0 || (!lenient && density > 0.2))) return true;
  if (node.commas >= 10) return false;
  const isList = node.tag === 'ul' || node.tag === 'ol';
  if (counts.img > 1 && counts.p / counts.img < 0.5) return true;
  if (lenient) return false;
  if (!isList && counts.li - 100 > counts.p) return true;
  if (!isList && node.textChars < MIN_PARAGRAPH_CHARS && (counts.img === 0 || counts.img > 2)) return true;
  if (!isList && weight < 25 && density > 0.2) return true;
  if (weight >= 25 && density > 0.5) return true;
  if (isList && density > 0.5) return true;
  return false;
}

/**
 * p, img and li elements below each element of `part`, counted bottom-up in one walk, with each
 * element's position in document order and the last paragraph of prose (not mostly links).
 */
function tagCounts(
  part: ContentNode,
  removed: Set<ContentNode>,
): { counts: Map<ContentNode, TagCounts>; lastProse: { node: ContentNode; order: number } | null } {
  const nodes = descendants(part, (node) => removed.has(node));
  const counts = new Map<ContentNode, TagCounts>();
  let lastProse: { node: ContentNode; order: number } | null = null;
  for (let i = nodes.length - 1; i >= 0; i--) {
    const node = nodes[i]!;
    const own: TagCounts = { p: 0, img: 0, li: 0, order: i };
    for (const child of node.children) {
      if (!isNode(child)) continue;
      const below = counts.get(child);
      if (!below) continue;
      own.p += below.p + (child.tag === 'p' ? 1 : 0);
      own.img += below.img + (child.tag === 'img' ? 1 : 0);
      own.li += below.li + (child.tag === 'li' ? 1 : 0);
    }
    counts.set(node, own);
    if (!lastProse && PROSE_TAGS.has(node.tag) && node.textChars >= MIN_PARAGRAPH_CHARS && linkDensity(node) < 0.5)
      lastProse = { node, order: i };
  }
  return { counts, lastProse };
}

const PROSE_TAGS: ReadonlySet<string> = new Set(['p', 'pre', 'blockquote', 'dd', 'td', 'li']);

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
