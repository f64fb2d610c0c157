import { isNode, type ContentNode } from './content-node.js';
import type { Scored } from './container-scores.js';
import { linkDensity } from './node-stats.js';
import { renderText } from './render-text.js';

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

function isPageLevel(node: ContentNode): boolean {
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
