import type { HtmlCollector } from '@crawler/core/html';
import { createNode, SKIPPED_TAGS, type ContentNode } from './content-node.js';

export interface TreeLimits {
  /** Elements materialized; past it, content goes to the deepest open element. */
  maxNodes: number;
  /** Nesting materialized; deeper elements are flattened into their ancestor at this depth. */
  maxDepth: number;
  /** Text characters kept in the tree. */
  maxTextChars: number;
}

/**
 * Builds the content tree from the parsing pass. Deep nesting, huge element counts and huge text
 * are cut at the limits (each reported as a warning), so a hostile page costs bounded memory and
 * the later tree walks, which are iterative, never overflow the stack.
 */
export function createContentTreeBuilder(
  limits: TreeLimits,
  warn: (reason: string) => void,
): HtmlCollector & { root: ContentNode } {
  const root = createNode('#root', null);
  // One entry per open element: its node, or why it was not materialized.
  const stack: (ContentNode | 'skipped' | 'capped')[] = [];
  let current = root;
  let depth = 0;
  let nodes = 0;
  let textChars = 0;
  let skipDepth = 0;

  return {
    root,
    open(name, attributes) {
      if (skipDepth > 0 || SKIPPED_TAGS.has(name)) {
        skipDepth++;
        stack.push('skipped');
        return;
      }
      if (depth >= limits.maxDepth || nodes >= limits.maxNodes) {
        warn(depth >= limits.maxDepth ? 'nesting-capped' : 'elements-capped');
        stack.push('capped');
        return;
      }
      const node = createNode(name, current, attributes);
      current.children.push(node);
      current = node;
      depth++;
      nodes++;
      stack.push(node);
    },
    text(data) {
      if (skipDepth > 0) return;
      if (textChars >= limits.maxTextChars) {
        warn('text-capped');
        return;
      }
      const chunk =
        data.length > limits.maxTextChars - textChars ? data.slice(0, limits.maxTextChars - textChars) : data;
      textChars += chunk.length;
      current.children.push(chunk);
    },
    close() {
      const node = stack.pop();
      if (node === undefined || node === 'capped') return;
      if (node === 'skipped') {
        skipDepth--;
        return;
      }
      current = node.parent ?? root;
      depth--;
    },
  };
}
