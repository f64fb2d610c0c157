import { urlId, type FingerprintStore, type Link } from '@crawler/core';

export const URL_NAMESPACE = 'url';

export interface SeenFilterResult {
  links: Link[];
  /** Links dropped because some page already passed them on. */
  seen: number;
}

/**
 * The URL-level check before the link base: each outlink's URL is marked in an approximate set
 * (FingerprintStore.markSeen: a Bloom filter of 4 to 16 bytes per URL, docs/DEDUP.md), and a link
 * some page marked before is not passed on, so a rediscovered link costs the scheduler no read and
 * no write. The link base stays the authority: it still decides what is new. A URL is marked with
 * the fetch that marked it and with its page, so a redelivered page passes its links on again. A
 * false positive (at most 1 in 1,000 new URLs) holds back a URL no page passed on: it is not
 * fetched while links to it keep being seen, the price of the filter's size. A link with sitemap
 * hints (lastmod, changefreq) is marked but always passed on: the URL was usually found first on an
 * HTML page, and only the sitemap says how often it changes. Sitemaps contribute links only when
 * their content changed, so this costs one read per hinted URL then.
 */
export async function filterSeenLinks(
  store: FingerprintStore,
  links: readonly Link[],
  source: { url: string; fetchedAt: number },
  ttlMs: number,
  options: { againFromSource?: boolean } = {},
): Promise<SeenFilterResult> {
  if (links.length === 0) return { links: [], seen: 0 };
  const sourceTag = urlId(source.url).slice(0, 12);
  const registration = `${source.fetchedAt}:${sourceTag}`;
  const results = await store.markSeen(
    URL_NAMESPACE,
    links.map((link) => ({ key: urlId(link.url), marks: [registration, sourceTag] })),
    ttlMs,
  );
  // againFromSource: links marked by any fetch of the same page pass too (a fetch whose outlinks may be lost).
  const kept = links.filter((link, index) => {
    const { seen, marked } = results[index]!;
    return !seen || marked[0] || (options.againFromSource === true && marked[1]) || hasSitemapHints(link);
  });
  return { links: kept, seen: links.length - kept.length };
}

function hasSitemapHints(link: Link): boolean {
  return (link.lastmod ?? null) !== null || (link.changefreq ?? null) !== null;
}
