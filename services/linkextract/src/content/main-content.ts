import { classWeight, isBoilerplate, isEmbeddedPost } from './boilerplate-signals.js';
import { BLOCK_TAGS, isNode, type ContentNode } from './content-node.js';
import { computeStats, countText, descendants, linkDensity } from './node-stats.js';
import { renderText } from './render-text.js';

export interface MainContent {
  text: string;
  /** How the content was found: a scored container, or the whole page when nothing stood out. */
  method: 'scored' | 'page';
}

/** Elements whose text counts as a paragraph when scoring. */
const PARAGRAPH_TAGS: ReadonlySet<string> = new Set(['p', 'pre', 'td', 'blockquote', 'section', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** Elements that make a div a container rather than a paragraph. */
const DIV_BREAKERS: ReadonlySet<string> = new Set(['blockquote', 'dl', 'div', 'img', 'ol', 'p', 'pre', 'table', 'ul', 'section', 'article', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const MIN_PARAGRAPH_CHARS = 25;
const ANCESTOR_LEVELS = 5;

interface Scored {
  node: ContentNode;
  score: number;
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
    for (let level = 0; ancestor && ancestor.tag !== '#root' && level < ANCESTOR_LEVELS; level++, ancestor = ancestor.parent) {
      const divider = level === 0 ? 1 : level === 1 ? 2 : level * 3;
      scores.set(ancestor, initial(ancestor) + points / divider);
    }
  };
  for (const node of all) {
    if (isParagraph(node)) award(node.parent, node.textChars, node.commas);
    else if (BLOCK_TAGS.has(node.tag)) for (const run of inlineRuns(node, removed)) award(node, run.chars, run.commas);
  }

  const ranked: Scored[] = [...scores].map(([node, score]) => ({ node, score: score * (1 - linkDensity(node)) })).sort((a, b) => b.score - a.score);
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

/**
 * Text written straight into a container between its blocks (`<div>text<br>text<div>…</div>`):
 * each run counts as a paragraph of the container, as if it were wrapped in a <p>.
 */
function inlineRuns(node: ContentNode, removed: Set<ContentNode>): { chars: number; commas: number }[] {
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

/**
 * When the best containers share an ancestor, the article is that ancestor (split articles); so
 * it is when scores rise again a few levels up. An only child is replaced by its parent.
 */
function betterAncestor(top: Scored, ranked: Scored[], scores: Map<ContentNode, number>): ContentNode {
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

function contains(ancestor: ContentNode, node: ContentNode): boolean {
  for (let up: ContentNode | null = node; up; up = up.parent) if (up === ancestor) return true;
  return false;
}

/** The container plus siblings that score close to it or read like prose. */
function withSiblings(container: ContentNode, scores: Map<ContentNode, number>): ContentNode[] {
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
      if ((child.textChars > 80 && density < 0.25) || (child.textChars > 0 && child.textChars <= 80 && density === 0 && /\.( |$)/.test(renderText([child])))) parts.push(child);
    }
  }
  return parts;
}

/**
 * Articles split into chunks with the same markup (`div.article-body` twice, an ad row between):
 * chunks sharing the container's tag and class, a few levels apart, join it, in document order.
 */
function withTwins(parts: ContentNode[], container: ContentNode, all: ContentNode[]): ContentNode[] {
  if (container.signature === '') return parts;
  let scopeRoot = container;
  for (let level = 0; level < TWIN_LEVELS && scopeRoot.parent && !isPageLevel(scopeRoot.parent); level++) scopeRoot = scopeRoot.parent;
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

/**
 * Removes lists, tables and divs inside the content that look like furniture: negative class
 * signals, mostly links, more list items than paragraphs, or almost no text.
 */
function cleanConditionally(part: ContentNode, removed: Set<ContentNode>, scores: Map<ContentNode, number>, weigh: (node: ContentNode) => number): void {
  const counts = tagCounts(part, removed);
  const stack = [part];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (removed.has(node)) continue;
    if (node !== part && ((isCleanable(node.tag) && looksLikeFurniture(node, counts.get(node)!, scores, weigh)) || isLinkLine(node))) {
      removed.add(node);
      continue;
    }
    for (const child of node.children) if (isNode(child)) stack.push(child);
  }
}

/** A short paragraph that is mostly a link: "READ MORE: …", teasers between the paragraphs. */
function isLinkLine(node: ContentNode): boolean {
  return LINE_TAGS.has(node.tag) && node.textChars > 0 && node.textChars < LINK_LINE_MAX_CHARS && linkDensity(node) >= LINK_LINE_DENSITY;
}

const LINE_TAGS: ReadonlySet<string> = new Set(['p', 'li', 'dd', 'dt', 'h2', 'h3', 'h4', 'h5', 'h6']);
const LINK_LINE_MAX_CHARS = 300;
const LINK_LINE_DENSITY = 0.6;

function isCleanable(tag: string): boolean {
  return tag === 'div' || tag === 'ul' || tag === 'ol' || tag === 'table' || tag === 'section' || tag === 'form' || tag === 'fieldset';
}

interface TagCounts {
  p: number;
  img: number;
  li: number;
}

function looksLikeFurniture(node: ContentNode, counts: TagCounts, scores: Map<ContentNode, number>, weigh: (node: ContentNode) => number): boolean {
  if (isEmbeddedPost(node)) return false;
  const weight = weigh(node);
  if (weight + (scores.get(node) ?? 0) < 0) return true;
  if (node.commas >= 10) return false;
  const isList = node.tag === 'ul' || node.tag === 'ol';
  const density = linkDensity(node);
  if (counts.img > 1 && counts.p / counts.img < 0.5) return true;
  if (!isList && counts.li - 100 > counts.p) return true;
  if (!isList && node.textChars < MIN_PARAGRAPH_CHARS && (counts.img === 0 || counts.img > 2)) return true;
  if (!isList && weight < 25 && density > 0.2) return true;
  if (weight >= 25 && density > 0.5) return true;
  if (isList && density > 0.5) return true;
  return false;
}

/** p, img and li elements below each element of `part`, counted bottom-up in one walk. */
function tagCounts(part: ContentNode, removed: Set<ContentNode>): Map<ContentNode, TagCounts> {
  const nodes = descendants(part, (node) => removed.has(node));
  const counts = new Map<ContentNode, TagCounts>();
  for (let i = nodes.length - 1; i >= 0; i--) {
    const node = nodes[i]!;
    const own: TagCounts = { p: 0, img: 0, li: 0 };
    for (const child of node.children) {
      if (!isNode(child)) continue;
      const below = counts.get(child);
      if (!below) continue;
      own.p += below.p + (child.tag === 'p' ? 1 : 0);
      own.img += below.img + (child.tag === 'img' ? 1 : 0);
      own.li += below.li + (child.tag === 'li' ? 1 : 0);
    }
    counts.set(node, own);
  }
  return counts;
}

/** The article's headline repeats the page title; main text is the body below it. */
function removeTitleHeading(parts: ContentNode[], title: string | null, removed: Set<ContentNode>): void {
  if (!title) return;
  const normalizedTitle = normalize(title);
  for (const part of parts) {
    const stack = [part];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (removed.has(node)) continue;
      if (node.tag === 'h1' || node.tag === 'h2') {
        const heading = normalize(renderText([node]));
        if (heading.length > 0 && normalizedTitle.includes(heading)) removed.add(node);
        continue;
      }
      for (const child of node.children) if (isNode(child) && BLOCK_TAGS.has(child.tag)) stack.push(child);
    }
  }
}

function normalize(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}
