import { classWeight, isBoilerplate } from './boilerplate-signals.js';
import { isNode, type ContentNode } from './content-node.js';
import { betterAncestor, contains, withSiblings, withTwins } from './container-choice.js';
import { scoreContainers } from './container-scores.js';
import { cleanConditionally, removeTitleHeading } from './content-cleaning.js';
import { chooseContent } from './content-shape.js';
import { computeStats, descendants } from './node-stats.js';
import { renderText } from './render-text.js';

export interface MainContent {
  text: string;
  /** How the content was found: a scored container, or the whole page when nothing stood out. */
  method: 'scored' | 'page';
  /** The elements the text was rendered from, and the subtrees left out of them: the Markdown renders the same. */
  parts: ContentNode[];
  removed: ReadonlySet<ContentNode>;
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
  let previous: { attempt: Attempt; result: AttemptResult } | null = null;
  for (const attempt of ATTEMPTS) {
    if (previous && repeats(previous.attempt, previous.result, attempt)) continue;
    const result = attemptExtraction(root, title, attempt);
    previous = { attempt, result };
    if (!best || result.text.length > best.text.length) best = result;
    if (result.text.length >= ENOUGH_TEXT) return best;
  }
  return best!;
}

interface AttemptResult extends MainContent {
  /** Subtrees dropped for their class or id alone. */
  classRemovals: number;
  /** Some class/id weight was not zero. */
  weighted: boolean;
  /** Subtrees cleaning removed. */
  cleanRemovals: number;
}

/** An attempt that only drops signals which changed nothing last time would repeat it exactly. */
function repeats(previous: Attempt, result: AttemptResult, next: Attempt): boolean {
  const strip = !previous.stripUnlikely || next.stripUnlikely || result.classRemovals === 0;
  const weigh = !previous.weighClasses || next.weighClasses || !result.weighted;
  const clean = !previous.clean || next.clean || result.cleanRemovals === 0;
  return strip && weigh && clean;
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
const KEEP_HEADING_BELOW_CHARS = 1000;

function attemptExtraction(root: ContentNode, title: string | null, attempt: Attempt): AttemptResult {
  let weighted = false;
  const weigh = (node: ContentNode) => {
    const weight = attempt.weighClasses ? classWeight(node) : 0;
    if (weight !== 0) weighted = true;
    return weight;
  };
  const removed = new Set<ContentNode>();
  const classRemovals = markBoilerplate(root, removed, attempt.stripUnlikely);
  const all = computeStats(root, (node) => removed.has(node));
  const ranked = scoreContainers(all, removed, weigh);
  const top = ranked[0];
  if (!top)
    return {
      text: renderText([root], (node) => removed.has(node)),
      method: 'page',
      parts: [root],
      removed,
      classRemovals,
      weighted,
      cleanRemovals: 0,
    };
  const finalScores = new Map(ranked.map((entry) => [entry.node, entry.score]));
  const { container, kind } = chooseContent(betterAncestor(top, ranked, finalScores), root, removed);
  const parts = kind === 'index' ? [container] : withTwins(withSiblings(container, finalScores), container, all);
  const beforeCleaning = removed.size;
  if (attempt.clean) for (const part of parts) cleanConditionally(part, removed, finalScores, weigh, kind);
  const cleanRemovals = removed.size - beforeCleaning;
  // On a short page the heading is much of what it says (a chapter's table of contents, a stub).
  if (parts.reduce((sum, part) => sum + part.textChars, 0) >= KEEP_HEADING_BELOW_CHARS)
    removeTitleHeading(parts, title, removed);
  return {
    text: renderText(parts, (node) => removed.has(node)),
    method: 'scored',
    parts,
    removed,
    classRemovals,
    weighted,
    cleanRemovals,
  };
}

/** Marks furniture subtrees; returns how many were marked for their class or id alone. */
function markBoilerplate(root: ContentNode, removed: Set<ContentNode>, byClass: boolean): number {
  let classRemovals = 0;
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (isBoilerplate(node, byClass)) {
      removed.add(node);
      if (byClass && !isBoilerplate(node, false)) classRemovals++;
      continue;
    }
    for (const child of node.children) if (isNode(child)) stack.push(child);
  }
  return classRemovals;
}
