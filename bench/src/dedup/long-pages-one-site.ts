import type { LabeledWeb } from './near-duplicate-eval.js';
import type { FixtureBedPage } from './bed-page-fixtures.js';

/** Pages of these kinds have no near copy made: indexes and the search page are lists, not texts. */
const LISTS = /\/(genindex[^/]*|search)\.html$/;

/**
 * Long pages of one site, from the real-web bed: Python's release notes and library pages,
 * PostgreSQL's release notes and SQL reference, Git's manual pages (which share whole option lists),
 * and the index and search pages crawls of the bed joined wrongly. Every two of them are different
 * pages. Each text page also has a near copy on its site under another URL, as a mirror of the
 * previous release would have it: one paragraph changed, one added. Every pair that is not a page and
 * its copy is a negative.
 */
export function longPagesOfOneSite(pages: readonly FixtureBedPage[]): LabeledWeb {
  const web: LabeledWeb = { pages: [], groups: [], negatives: [], skipped: {}, exhaustive: true };
  for (const page of pages) {
    web.pages.push({ url: page.url, html: page.html });
    if (LISTS.test(page.url)) continue;
    const copy = nearCopy(page.html);
    if (!copy) {
      web.skipped['page without three paragraphs to edit'] =
        (web.skipped['page without three paragraphs to edit'] ?? 0) + 1;
      continue;
    }
    const url = new URL(page.url);
    const mirrored = `${url.origin}/previous${url.pathname}`;
    web.pages.push({ url: mirrored, html: copy });
    web.groups.push({ kind: 'long page, small edit, same site', urls: [page.url, mirrored] });
  }
  const sites = new Map<string, FixtureBedPage[]>();
  for (const page of pages) sites.set(new URL(page.url).origin, [...(sites.get(new URL(page.url).origin) ?? []), page]);
  for (const members of sites.values())
    for (let a = 0; a < members.length; a++)
      for (let b = a + 1; b < members.length; b++)
        web.negatives.push({ kind: 'different long pages, one site', a: members[a]!.url, b: members[b]!.url });
  return web;
}

const EDITED = 'This paragraph was revised for the previous release, and its details differ from the text above.';
const ADDED =
  'Changed in the previous release: the behaviour described in this section was adjusted, and the notes of that release list what changed and why.';

/** The page with its middle paragraph's last sentence rewritten and a paragraph added after it. */
function nearCopy(html: string): string | null {
  const paragraphs = [...html.matchAll(/<p>([^<]{80,})<\/p>/g)];
  if (paragraphs.length < 3) return null;
  const middle = paragraphs[Math.floor(paragraphs.length / 2)]!;
  const sentences = middle[1]!.split(/(?<=\.)\s+/);
  const edited = [...sentences.slice(0, -1), EDITED].join(' ');
  const at = middle.index;
  return `${html.slice(0, at)}<p>${edited}</p>\n<p>${ADDED}</p>${html.slice(at + middle[0].length)}`;
}
