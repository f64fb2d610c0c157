import type { ChangeDecision, FingerprintStore, Link, PageStore, ParsedPage } from '@crawler/core';
import { filterSeenLinks } from './url-seen-filter.js';

export interface PassedOutlinks {
  links: Link[];
  /** Links held back: passed on by some page before, or (of a near duplicate) its original's too. */
  held: number;
}

/**
 * Which outlinks the page passes on to the scheduler. A new or changed page: every link no page
 * passed on before (url-seen-filter.ts). An unchanged page or an exact duplicate: none, its links
 * were passed on with the version or the copy first seen (a copy in the same directory has the
 * same links; one elsewhere, as a spider trap serves it, would only feed the trap). A near
 * duplicate: the links its original does not have, then the same seen-check. Its text is the
 * original's, not its links: a page taken for a copy of another must not cost the crawl the pages
 * only it links to (an index of every letter against the index of one). A link counts as the
 * original's when the original has it, or, on one site, has the link at the same place relative to
 * itself (`x/` on `/a/` and on `/a/x/`): a near-duplicate trap that links ever deeper gains nothing.
 */
export async function passOutlinks(
  page: ParsedPage,
  change: ChangeDecision,
  original: string | null,
  options: { fingerprints: FingerprintStore; pages: PageStore; urlSeenTtlMs: number; recovered?: boolean },
): Promise<PassedOutlinks> {
  // recovered: an earlier fetch the link base never recorded may have registered these links as seen
  // without them reaching the scheduler; they pass again, even unchanged (the link base inserts only what it does not know).
  const passes = change === 'new' || change === 'changed' || change === 'near_duplicate' || options.recovered === true;
  if (!passes || page.links.length === 0) return { links: [], held: 0 };
  let links = page.links;
  if (change === 'near_duplicate' && original !== null) {
    const [stored] = await options.pages.get(original);
    // Places relative to the page only mean the same within one site; a reprint elsewhere links its own site.
    const sameSite = new URL(original).origin === new URL(page.url).origin;
    const theirs = new Set<string>();
    for (const link of stored?.links ?? []) {
      theirs.add(link.url);
      if (sameSite) theirs.add(placeOf(link.url, original));
    }
    links = links.filter((link) => !theirs.has(link.url) && !(sameSite && theirs.has(placeOf(link.url, page.url))));
  }
  const own = page.links.length - links.length;
  if (options.urlSeenTtlMs === 0 || links.length === 0) return { links, held: own };
  const { links: unseen, seen } = await filterSeenLinks(options.fingerprints, links, page, options.urlSeenTtlMs, {
    againFromSource: options.recovered === true,
  });
  return { links: unseen, held: own + seen };
}

/** The link as its page writes it relatively: below the page's directory, the rest of the path; else the URL. */
function placeOf(link: string, page: string): string {
  const [from, to] = [new URL(page), new URL(link)];
  if (from.origin !== to.origin) return link;
  const directory = from.pathname.slice(0, from.pathname.lastIndexOf('/') + 1);
  return to.pathname.startsWith(directory) ? `./${to.pathname.slice(directory.length)}${to.search}` : link;
}
