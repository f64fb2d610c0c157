import { isNode, type ContentNode } from './content-node.js';
import { enclosingSection, isPageLevel, massContainer, widenToSections } from './container-choice.js';
import { linkDensity } from './node-stats.js';
import { opensWithHeading } from './section-heading.js';

/** What the main content is: a story, a structured document, or an index of links. */
export type ContentKind = 'story' | 'document' | 'index';

/**
 * The content container and its kind, from the container scoring picked. A whole page that scored
 * best has its content somewhere inside: where its text is. The pick grows to the sections around
 * it (widenToSections). If what it reaches is links, the page is an index: the section around
 * them; if it is a sliver of the page, there was no prose to go on: the section where the page's
 * text is. Otherwise a story, or a document when it opens with a heading.
 */
export function chooseContent(
  pick: ContentNode,
  root: ContentNode,
  removed: ReadonlySet<ContentNode>,
): { container: ContentNode; kind: ContentKind } {
  const best = widenToSections(isPageLevel(pick) ? massContainer(pick, removed) : pick, removed);
  switch (bestProseReadsAs(best, root)) {
    case 'links':
      return { container: enclosingSection(best, removed) ?? whereTextIs(root, removed), kind: 'index' };
    case 'sliver':
      return { container: whereTextIs(root, removed), kind: 'index' };
    default:
      return { container: best, kind: readsAsDocument(best, removed) ? 'document' : 'story' };
  }
}

function whereTextIs(root: ContentNode, removed: ReadonlySet<ContentNode>): ContentNode {
  const mass = massContainer(root, removed);
  return enclosingSection(mass, removed) ?? mass;
}

/**
 * How the best prose that scoring found reads: as the page's content, as links (the page is an
 * index or a table of contents), or as a sliver of a page whose text is elsewhere (a chapter page
 * of a heading and links, where a navigation cell scored best).
 */
export function bestProseReadsAs(best: ContentNode, root: ContentNode): 'content' | 'links' | 'sliver' {
  if (linkDensity(best) >= INDEX_LINK_DENSITY) return 'links';
  if (best.textChars < SLIVER_CHARS && root.textChars >= best.textChars * SLIVER_FACTOR) return 'sliver';
  return 'content';
}

const INDEX_LINK_DENSITY = 0.5;
/** Shorter than any article's body… */
const SLIVER_CHARS = 200;
/** …and this many times less than the page's text (furniture removed). */
const SLIVER_FACTOR = 4;

/**
 * Whether the content is a structured document rather than a story: its text, or that of its
 * largest part, opens with a heading. A document's notes, tables of contents, version notes and
 * short lines are part of it; in a story's body they would be inserted furniture.
 */
export function readsAsDocument(container: ContentNode, removed: ReadonlySet<ContentNode>): boolean {
  if (opensWithHeading(container, removed)) return true;
  let largest: ContentNode | null = null;
  for (const child of container.children)
    if (isNode(child) && !removed.has(child) && (!largest || child.textChars > largest.textChars)) largest = child;
  return largest !== null && opensWithHeading(largest, removed);
}
