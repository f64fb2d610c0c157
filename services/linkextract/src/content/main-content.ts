import { classWeight, isBoilerplate } from './boilerplate-signals.js';
import { isNode, type ContentNode } from './content-node.js';
import { betterAncestor, contains, withSiblings, withTwins } from './container-choice.js';
import { scoreContainers } from './container-scores.js';
import { cleanConditionally, removeTitleHeading } from './content-cleaning.js';
import { computeStats, descendants } from './node-stats.js';
import { renderText } from './render-text.js';

export interface MainContent {
  text: string;
  /** How the content was found: a scored container, or the whole page when nothing stood out. */
  method: 'scored' | 'page';
}

/**
 * Main text in the manner of Readability: paragraphs score their ancestors by length and
 * commas, containers start from tag and class/id signals, link-heavy containers are discounted;
 * the best container is taken with the siblings that score close to it, then cleaned of
 * link lists, widgets and furniture before it is flattened to text.
 */
export function extractMainContent(root: ContentNode, title: string | null): MainContent {
  const whole = extractWithin(root, title);
  if (whole.text.length >= ENOUGH_TEXT) return whole;
  // Too little prose to score well: the page's own <main>, if it has one, is the better guide.
  const declared = declaredMain(root);
  if (!declared) return whole;
  const inside = extractWithin(declared, title);
  return inside.text.length > 0 ? inside : whole;
}

/** The page's own statement of where its content is: its only <main> (or role=main) element. */
function declaredMain(root: ContentNode): ContentNode | null {
  let found: ContentNode | null = null;
  for (const node of descendants(root)) {
    if (node.tag === 'main' || node.role === 'main') {
      if (found && !contains(found, node)) return null;
      found ??= node;
    }
  }
  return found;
}

function extractWithin(root: ContentNode, title: string | null): MainContent {
  let best: MainContent | null = null;
  for (const attempt of ATTEMPTS) {
    const result = attemptExtraction(root, title, attempt);
    if (!best || result.text.length > best.text.length) best = result;
    if (result.text.length >= ENOUGH_TEXT) return result;
  }
  return best!;
}

interface Attempt {
  /** Drop subtrees whose class or id reads like furniture before scoring. */
  stripUnlikely: boolean;
  /** Let class/id words weigh on scores and on cleaning. */
  weighClasses: boolean;
  /** Remove link lists, widgets and near-empty blocks from the chosen content. */
  clean: boolean;
}

/** Each attempt trusts fewer signals; the first to yield enough text wins, else the longest (as Readability does). */
const ATTEMPTS: Attempt[] = [
  { stripUnlikely: true, weighClasses: true, clean: true },
  { stripUnlikely: false, weighClasses: true, clean: true },
  { stripUnlikely: false, weighClasses: false, clean: true },
  { stripUnlikely: false, weighClasses: false, clean: false },
];
const ENOUGH_TEXT = 500;

function attemptExtraction(root: ContentNode, title: string | null, attempt: Attempt): MainContent {
  const weigh = attempt.weighClasses ? classWeight : () => 0;
  const removed = new Set<ContentNode>();
  markBoilerplate(root, removed, attempt.stripUnlikely);
  const all = computeStats(root, (node) => removed.has(node));
  const ranked = scoreContainers(all, removed, weigh);
  const top = ranked[0];
  if (!top) return { text: renderText([root], (node) => removed.has(node)), method: 'page' };
  const finalScores = new Map(ranked.map((entry) => [entry.node, entry.score]));
  const container = betterAncestor(top, ranked, finalScores);
  const parts = withTwins(withSiblings(container, finalScores), container, all);
  if (attempt.clean) for (const part of parts) cleanConditionally(part, removed, finalScores, weigh);
  removeTitleHeading(parts, title, removed);
  return { text: renderText(parts, (node) => removed.has(node)), method: 'scored' };
}

function markBoilerplate(root: ContentNode, removed: Set<ContentNode>, byClass: boolean): void {
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (isBoilerplate(node, byClass)) {
      removed.add(node);
      continue;
    }
    for (const child of node.children) if (isNode(child)) stack.push(child);
  }
}
