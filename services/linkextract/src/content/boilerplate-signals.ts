import type { ContentNode } from './content-node.js';
import { leadingHeading } from './section-heading.js';

// Class and id words that mark page furniture or the article. The lists follow what Readability
// and trafilatura learned from real sites; they are signals to weigh, never proof on their own.
const UNLIKELY =
  /(?:^|[\s_-])(?:ad|ads|advert\w*|banner|breadcrumbs?|cookie\w*|comments?|community|consent|disqus|footer|gdpr|header|menu|nav|navbar|newsletter|outbrain|popup|promo\w*|related|remarks?|replies|rss|share|sharing|shoutbox|sidebar|skyscraper|social|sponsor\w*|subscribe|subscription|supplemental|taboola|tags|toolbar|trending|widget\w*|pagination|pager|recirc\w*|signup|most-?popular|more-?stories|read-?more|byline|author-?bio|print-?only|sr-only|visually-?hidden|screen-?reader\w*)(?=$|[\s_-])/;
/** Furniture even when the class also says content (`comment-body`, `related-content`). */
const STRONG_UNLIKELY =
  /(?:^|[\s_-])(?:comments?|commentlist|disqus|related|share|sharing|social|newsletter|subscribe|cookie\w*|sidebar|breadcrumbs?|caption|credits?|byline|author|dateline|timestamp|post-?meta|entry-?meta|tags|taglist|tag-?cloud)(?=$|[\s_-])/;
/** Posts quoted in the article (tweets and the like): their text is part of the story. */
const EMBEDDED_POST = /twitter-tweet|instagram-media|tiktok-embed|social-?(?:media-?)?embed|embedded-?post/;
const MAYBE_CONTENT = /(?:^|[\s_-])(?:article|body|content|main|story|entry|post|text|column)/;
const POSITIVE = /article|body|content|entry|hentry|h-entry|main|page|post|text|blog|story|prose|paragraph/;
const NEGATIVE =
  /(?:^|[\s_-])(?:ad|ads|hidden|banner|combx|comment|com|contact|footer|gdpr|masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|widget|caption|credit|byline|timestamp|dateline|newsletter|subscribe|social|toolbar|nav|menu)(?=$|[\s_-])/;

const JUNK_TAGS: ReadonlySet<string> = new Set([
  'nav',
  'aside',
  'footer',
  'menu',
  'dialog',
  'header',
  'label',
  'figure',
  'figcaption',
  'picture',
  'map',
]);
const JUNK_ROLES: ReadonlySet<string> = new Set([
  'navigation',
  'banner',
  'contentinfo',
  'complementary',
  'search',
  'dialog',
  'alertdialog',
  'menu',
  'menubar',
  'toolbar',
  'tablist',
]);
/** Never junk by class or id: the page itself and its declared main content. */
const KEEP_TAGS: ReadonlySet<string> = new Set(['#root', 'html', 'body', 'main', 'article']);

/** Furniture by tag, role, hiding or (when `byClass`) class/id words; such subtrees are not scored and not rendered. */
export function isBoilerplate(node: ContentNode, byClass = true): boolean {
  if (node.hidden) return true;
  if (KEEP_TAGS.has(node.tag)) return false;
  if (node.itemprop === 'articlebody') return false;
  if (JUNK_TAGS.has(node.tag)) return true;
  if (node.role !== null && JUNK_ROLES.has(node.role)) return true;
  if (!byClass || node.signature === '' || isEmbeddedPost(node)) return false;
  return readsAs(node, readsAsFurniture);
}

function readsAsFurniture(signature: string): boolean {
  return STRONG_UNLIKELY.test(signature) || (UNLIKELY.test(signature) && !MAYBE_CONTENT.test(signature));
}

function readsAsNegative(signature: string): boolean {
  return NEGATIVE.test(signature);
}

/**
 * Whether the class/id words pass `test`. An id on a section (an element whose text opens with a
 * heading) names its subject, not its place on the page ("cookie-objects", "credits",
 * "sql-for-update-share"): there only the class is read. The heading is looked for only when the
 * words matched, which is rare.
 */
function readsAs(node: ContentNode, test: (signature: string) => boolean): boolean {
  if (!test(node.signature)) return false;
  if (node.id === '') return true;
  if (test(node.signature.slice(node.id.length + 1))) return true;
  const heading = leadingHeading(node);
  if (heading === null) return true;
  if (heading.tag === 'h1' && plainText(heading)) return false;
  return node.id.split(/[-_\s.:]+/).filter(Boolean).length < 2;
}

export function isEmbeddedPost(node: ContentNode): boolean {
  return node.signature !== '' && EMBEDDED_POST.test(node.signature);
}

/** +25 for an article-like class/id, -25 for a furniture-like one (both can apply). */
export function classWeight(node: ContentNode): number {
  if (node.signature === '' || isEmbeddedPost(node)) return 0;
  let weight = 0;
  if (readsAs(node, readsAsNegative)) weight -= 25;
  if (POSITIVE.test(node.signature)) weight += 25;
  return weight;
}

function plainText(node: ContentNode): boolean {
  const stack = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (current.tag === 'a' || current.tag === 'img') return false;
    for (const child of current.children) if (typeof child !== 'string') stack.push(child);
  }
  return true;
}
