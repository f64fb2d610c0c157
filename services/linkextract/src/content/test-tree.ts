import { runHtmlPass } from '@crawler/core/html';
import type { ContentNode } from './content-node.js';
import { createContentTreeBuilder, type TreeLimits } from './content-tree-builder.js';

const roomy: TreeLimits = { maxNodes: 100_000, maxDepth: 512, maxTextChars: 1_000_000 };

/** Test helper: the content tree of some markup, with the warnings raised while building it. */
export function treeOf(html: string, limits: TreeLimits = roomy): { root: ContentNode; warnings: Set<string> } {
  const warnings = new Set<string>();
  const builder = createContentTreeBuilder(limits, (reason) => warnings.add(reason));
  runHtmlPass(html, [builder]);
  return { root: builder.root, warnings };
}
