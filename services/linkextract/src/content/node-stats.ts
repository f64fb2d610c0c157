import { isNode, type ContentNode } from './content-node.js';

type Skip = (node: ContentNode) => boolean;
const keepAll: Skip = () => false;

/** `root` and every element below it in document order, leaving out skipped subtrees (iterative: deep trees cannot overflow the stack). */
export function descendants(root: ContentNode, skip: Skip = keepAll): ContentNode[] {
  const out: ContentNode[] = [];
  const stack: ContentNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    out.push(node);
    for (let i = node.children.length - 1; i >= 0; i--) {
      const child = node.children[i]!;
      if (isNode(child) && !skip(child)) stack.push(child);
    }
  }
  return out;
}

/**
 * Fills textChars, linkChars and commas of every element, children before parents, as if skipped
 * subtrees were not there; returns the elements in document order.
 */
export function computeStats(root: ContentNode, skip: Skip = keepAll): ContentNode[] {
  const all = descendants(root, skip);
  for (let i = all.length - 1; i >= 0; i--) {
    const node = all[i]!;
    let text = 0;
    let links = 0;
    let commas = 0;
    for (const child of node.children) {
      if (isNode(child)) {
        if (skip(child)) continue;
        text += child.textChars;
        links += child.linkChars;
        commas += child.commas;
      } else {
        const counted = countText(child);
        text += counted.chars;
        commas += counted.commas;
      }
    }
    node.textChars = text;
    node.linkChars = node.tag === 'a' ? text : links;
    node.commas = commas;
  }
  return all;
}

/** Visible (non-space) characters and commas of a text. */
export function countText(text: string): { chars: number; commas: number } {
  let chars = 0;
  let commas = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code <= 32 || code === 0xa0) continue;
    chars++;
    // , ، 、 ，
    if (code === 44 || code === 0x60c || code === 0x3001 || code === 0xff0c) commas++;
  }
  return { chars, commas };
}

export function linkDensity(node: ContentNode): number {
  return node.textChars === 0 ? 0 : node.linkChars / node.textChars;
}
