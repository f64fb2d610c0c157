import { BLOCK_TAGS } from '@crawler/core/html';
import { isNode, type ContentNode } from './content-node.js';
import { countText, linkDensity } from './node-stats.js';

export interface Scored {
  node: ContentNode;
  score: number;
}

/** Elements whose text counts as a paragraph when scoring. */
const PARAGRAPH_TAGS: ReadonlySet<string> = new Set([
  'p',
  'pre',
  'td',
  'blockquote',
  'section',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
]);
/** Elements that make a div a container rather than a paragraph. */
const DIV_BREAKERS: ReadonlySet<string> = new Set([
  'blockquote',
  'dl',
  'div',
  'img',
  'ol',
  'p',
  'pre',
  'table',
  'ul',
  'section',
  'article',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
]);
export const MIN_PARAGRAPH_CHARS = 25;
const ANCESTOR_LEVELS = 5;

/**
 * Readability's scoring: every paragraph of at least 25 characters gives its ancestors points
 * (1, plus one per comma, plus one per 100 characters up to 3), the parent in full, the
 * grandparent half, further ancestors a third per level. A container starts from its tag and
 * class/id weight. The final score is discounted by link density; best first.
 */
export function scoreContainers(
  all: readonly ContentNode[],
  removed: ReadonlySet<ContentNode>,
  weigh: (node: ContentNode) => number,
): Scored[] {
  const scores = new Map<ContentNode, number>();
  const initial = (node: ContentNode) => {
    let score = scores.get(node);
    if (score === undefined) {
      score = tagScore(node.tag) + weigh(node);
      scores.set(node, score);
    }
    return score;
  };
  const award = (parent: ContentNode | null, chars: number, commas: number) => {
    if (chars < MIN_PARAGRAPH_CHARS) return;
    const points = 1 + commas + Math.min(Math.floor(chars / 100), 3);
    let ancestor = parent;
    for (
      let level = 0;
      ancestor && ancestor.tag !== '#root' && level < ANCESTOR_LEVELS;
      level++, ancestor = ancestor.parent
    ) {
      const divider = level === 0 ? 1 : level === 1 ? 2 : level * 3;
      scores.set(ancestor, initial(ancestor) + points / divider);
    }
  };
  for (const node of all) {
    if (isParagraph(node)) award(node.parent, node.textChars, node.commas);
    else if (BLOCK_TAGS.has(node.tag)) for (const run of inlineRuns(node, removed)) award(node, run.chars, run.commas);
  }
  return [...scores]
    .map(([node, score]) => ({ node, score: score * (1 - linkDensity(node)) }))
    .sort((a, b) => b.score - a.score);
}

/**
 * Text written straight into a container between its blocks (`<div>text<br>text<div>…</div>`):
 * each run counts as a paragraph of the container, as if it were wrapped in a <p>.
 */
function inlineRuns(node: ContentNode, removed: ReadonlySet<ContentNode>): { chars: number; commas: number }[] {
  const runs: { chars: number; commas: number }[] = [];
  let run = { chars: 0, commas: 0 };
  for (const child of node.children) {
    if (!isNode(child)) {
      const counted = countText(child);
      run.chars += counted.chars;
      run.commas += counted.commas;
    } else if (removed.has(child)) {
      continue;
    } else if (BLOCK_TAGS.has(child.tag) && child.tag !== 'br') {
      if (run.chars > 0) runs.push(run);
      run = { chars: 0, commas: 0 };
    } else {
      run.chars += child.textChars - child.linkChars;
      run.commas += child.commas;
    }
  }
  if (run.chars > 0) runs.push(run);
  return runs;
}

function isParagraph(node: ContentNode): boolean {
  if (PARAGRAPH_TAGS.has(node.tag)) return true;
  if (node.tag !== 'div' && node.tag !== 'span' && node.tag !== 'article' && node.tag !== 'li') return false;
  return !node.children.some((child) => isNode(child) && DIV_BREAKERS.has(child.tag));
}

function tagScore(tag: string): number {
  switch (tag) {
    case 'div':
    case 'article':
    case 'main':
      return 5;
    case 'pre':
    case 'td':
    case 'blockquote':
      return 3;
    case 'address':
    case 'ol':
    case 'ul':
    case 'dl':
    case 'dd':
    case 'dt':
    case 'li':
    case 'form':
      return -3;
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6':
    case 'th':
      return -5;
    default:
      return 0;
  }
}
