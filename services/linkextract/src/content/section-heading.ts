import { isNode, type ContentNode } from './content-node.js';

/** The heading elements. */
export const HEADING_TAGS: ReadonlySet<string> = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const VISIBLE = /\S/;

/**
 * The heading whose text is the first visible text below `node`, or null when that text is not a
 * heading's: an element that opens with a heading is a section of a document. Walks only as far
 * as the first visible text, so it costs the markup before it, not the whole subtree.
 */
export function leadingHeading(
  node: ContentNode,
  skip: (node: ContentNode) => boolean = () => false,
): ContentNode | null {
  if (HEADING_TAGS.has(node.tag)) return node;
  // Open elements with the index of their next child: no copy of a long child list.
  const stack: [ContentNode, number][] = [[node, 0]];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const [parent, index] = top;
    if (index >= parent.children.length) {
      stack.pop();
      continue;
    }
    top[1] = index + 1;
    const child = parent.children[index]!;
    if (!isNode(child)) {
      if (VISIBLE.test(child)) return null;
    } else if (!skip(child)) {
      if (HEADING_TAGS.has(child.tag)) return child;
      stack.push([child, 0]);
    }
  }
  return null;
}

export function opensWithHeading(node: ContentNode, removed: ReadonlySet<ContentNode>): boolean {
  return leadingHeading(node, (child) => removed.has(child)) !== null;
}
