import { isNode, type ContentNode } from './content-node.js';
import type { Scored } from './container-scores.js';
import { countText, linkDensity } from './node-stats.js';
import { renderText } from './render-text.js';
import { opensWithHeading } from './section-heading.js';

/**
 * When the best containers share an ancestor, the article is that ancestor (split articles); so
 * it is when scores rise again a few levels up. An only child is replaced by its parent.
 */
export function betterAncestor(top: Scored, ranked: Scored[], scores: Map<ContentNode, number>): ContentNode {
  const close = ranked.slice(1, 6).filter((entry) => entry.score >= top.score * 0.75);
  let container = top.node;
  if (close.length >= 2) {
    for (let up = top.node.parent; up && !isPageLevel(up); up = up.parent) {
      if (close.filter((entry) => contains(up!, entry.node)).length >= 2) {
        container = up;
        break;
      }
    }
  }
  let lastScore = scores.get(container) ?? 0;
  const floor = lastScore / 3;
  for (let up = container.parent; up && !isPageLevel(up); up = up.parent) {
    const score = scores.get(up);
    if (score === undefined) continue;
    if (score < floor) break;
    if (score > lastScore) {
      container = up;
      break;
    }
    lastScore = score;
  }
  while (container.parent && !isPageLevel(container.parent) && container.parent.children.filter(isNode).length === 1) {
    container = container.parent;
  }
  return container;
}

/**
 * A document made of sections (a reference page: synopsis, description, parameters, examples)
 * scores best in one of them. The container grows to each enclosing section (an element whose
 * text opens with a heading) while what that adds is no more link-dense than what it has, and
 * to a section whose links outweigh the rest: an index or table of contents, whose links are its
 * content. Elements that are no section are passed through but not taken: a story's wrapper adds
 * teasers and comments, not more of the story. The body counts as a section when its text opens
 * with the document's heading once furniture is gone.
 */
export function widenToSections(container: ContentNode, removed: ReadonlySet<ContentNode>): ContentNode {
  let reach = container;
  let chosen = container;
  for (let up = container.parent; up && up.tag !== 'html' && up.tag !== '#root'; up = up.parent) {
    const extraText = up.textChars - reach.textChars;
    if (extraText > 0) {
      const extraDensity = (up.linkChars - reach.linkChars) / extraText;
      const alike = extraDensity <= Math.max(SECTION_DENSITY, linkDensity(reach) + SECTION_DENSITY_MARGIN);
      const section = opensWithHeading(up, removed);
      if (!alike && !(section && extraText > reach.textChars)) break;
      // What follows the document on its page (related links, notices) is the page's, not the
      // document's: the body is taken only for what precedes the content, its title block.
      if (up.tag === 'body' && textAfter(reach, up, removed) > 0) break;
      if (section) chosen = up;
    }
    reach = up;
  }
  return chosen;
}

/** Text of the elements after `node` within `ancestor`, furniture left out. */
function textAfter(node: ContentNode, ancestor: ContentNode, removed: ReadonlySet<ContentNode>): number {
  let chars = 0;
  for (let child = node; child !== ancestor && child.parent; child = child.parent) {
    const siblings = child.parent.children;
    for (let i = siblings.indexOf(child) + 1; i < siblings.length; i++) {
      const sibling = siblings[i]!;
      chars += isNode(sibling) ? (removed.has(sibling) ? 0 : sibling.textChars) : countText(sibling).chars;
    }
  }
  return chars;
}

/** Added text up to this link density always passes for more of the same document… */
const SECTION_DENSITY = 0.25;
/** …and a little more than the container's own, when that is higher. */
const SECTION_DENSITY_MARGIN = 0.15;

/**
 * Where the text is: the deepest element below `node` holding nearly all of its text (furniture
 * removed). Guides the choice where scoring has nothing to go on: an index or a table of
 * contents has no prose, a container that is the whole page has its text somewhere inside.
 */
export function massContainer(node: ContentNode, removed: ReadonlySet<ContentNode>): ContentNode {
  const total = node.textChars;
  let current = node;
  for (;;) {
    let next: ContentNode | null = null;
    for (const child of current.children)
      if (isNode(child) && !removed.has(child) && child.textChars >= total * MASS_SHARE) next = child;
    if (!next) return current;
    current = next;
  }
}

const MASS_SHARE = 0.9;

/** The nearest element from `node` up, below the page level, whose text opens with a heading. */
export function enclosingSection(node: ContentNode, removed: ReadonlySet<ContentNode>): ContentNode | null {
  for (let up: ContentNode | null = node; up && !isPageLevel(up); up = up.parent)
    if (opensWithHeading(up, removed)) return up;
  return null;
}

export function isPageLevel(node: ContentNode): boolean {
  return node.tag === '#root' || node.tag === 'body' || node.tag === 'html';
}

export function contains(ancestor: ContentNode, node: ContentNode): boolean {
  for (let up: ContentNode | null = node; up; up = up.parent) if (up === ancestor) return true;
  return false;
}

/** The container plus siblings that score close to it or read like prose. */
export function withSiblings(container: ContentNode, scores: Map<ContentNode, number>): ContentNode[] {
  const parent = container.parent;
  if (!parent) return [container];
  const topScore = scores.get(container) ?? 0;
  const threshold = Math.max(10, topScore * 0.2);
  const parts: ContentNode[] = [];
  for (const child of parent.children) {
    if (!isNode(child)) continue;
    if (child === container) {
      parts.push(child);
      continue;
    }
    let score = scores.get(child) ?? 0;
    if (child.signature !== '' && child.signature === container.signature) score += topScore * 0.2;
    if (score >= threshold) {
      parts.push(child);
      continue;
    }
    if (child.tag === 'p') {
      const density = linkDensity(child);
      if (
        (child.textChars > 80 && density < 0.25) ||
        (child.textChars > 0 && child.textChars <= 80 && density === 0 && /\.( |$)/.test(renderText([child])))
      )
        parts.push(child);
    }
  }
  return parts;
}

/**
 * Articles split into chunks with the same markup (`div.article-body` twice, an ad row between):
 * chunks sharing the container's tag and class, a few levels apart, join it, in document order.
 */
export function withTwins(parts: ContentNode[], container: ContentNode, all: ContentNode[]): ContentNode[] {
  if (container.signature === '') return parts;
  let scopeRoot = container;
  for (let level = 0; level < TWIN_LEVELS && scopeRoot.parent && !isPageLevel(scopeRoot.parent); level++)
    scopeRoot = scopeRoot.parent;
  const twins = all.filter(
    (node) =>
      node.tag === container.tag &&
      node.signature === container.signature &&
      node.textChars >= MIN_TWIN_CHARS &&
      linkDensity(node) < 0.3 &&
      contains(scopeRoot, node) &&
      !parts.some((part) => contains(part, node) || contains(node, part)),
  );
  if (twins.length === 0) return parts;
  const order = new Map(all.map((node, index) => [node, index]));
  return [...parts, ...twins].sort((a, b) => order.get(a)! - order.get(b)!);
}

const TWIN_LEVELS = 3;
const MIN_TWIN_CHARS = 100;
