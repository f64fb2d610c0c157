import { BLOCK_TAGS, type ContentNode } from './content-node.js';

const BLOCK_END = Symbol('block-end');
const PRE_END = Symbol('pre-end');
type WorkItem = ContentNode | string | typeof BLOCK_END | typeof PRE_END;

/**
 * Flattens elements to text: block elements start new lines, inline ones run together, line
 * breaks in the source become spaces (except inside <pre>), runs of spaces collapse, and one
 * newline separates blocks. `skip` leaves out whole subtrees.
 */
export function renderText(roots: readonly ContentNode[], skip: (node: ContentNode) => boolean = () => false): string {
  const parts: string[] = [];
  const stack: WorkItem[] = [];
  let preDepth = 0;
  for (let i = roots.length - 1; i >= 0; i--) stack.push(roots[i]!);
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (item === BLOCK_END) {
      parts.push('\n');
    } else if (item === PRE_END) {
      preDepth--;
    } else if (typeof item === 'string') {
      parts.push(preDepth > 0 ? item : item.replace(LINE_BREAKS, ' '));
    } else if (!skip(item)) {
      if (BLOCK_TAGS.has(item.tag)) {
        parts.push('\n');
        stack.push(BLOCK_END);
      }
      if (item.tag === 'pre') {
        preDepth++;
        stack.push(PRE_END);
      }
      for (let i = item.children.length - 1; i >= 0; i--) stack.push(item.children[i]!);
    }
  }
  return collapseWhitespace(parts.join(''));
}

const LINE_BREAKS = /[\r\n]+/g;

/** Anything collapseWhitespace would change; most short strings (anchors, titles) have none. */
const NEEDS_COLLAPSE = /[\t\n\f\r\u00a0\u200b]| {2}|^ | $/;

/** Collapses runs of spaces, keeps one newline between blocks. */
export function collapseWhitespace(value: string): string {
  if (!NEEDS_COLLAPSE.test(value)) return value;
  return value
    .replace(/[ \t\f\r\u00a0\u200b]+/g, ' ')
    .replace(/ ?\n\s*/g, '\n')
    .trim();
}
