import { urlId, type FingerprintStore, type Link } from '@crawler/core';

export const URL_NAMESPACE = 'url';

export interface SeenFilterResult {
  links: Link[];
  /** Links dropped because some page already passed them on. */
  seen: number;
}

/**
 * The URL-level check before the link base: each outlink's URL is registered once (create-if-
 * absent, TTL refreshed on every sighting), and a link already registered by another page is not
 * passed on, so a rediscovered link costs the scheduler no read and no write. The link base stays
 * the authority: it still decides what is new. The registration names the fetch that made it, so a
 * redelivered page passes its links on again. Keys are 80 bits of the URL's SHA-1: at ten million
 * URLs the chance of any collision is about 4 in 10^11, and one would drop a link, never add one.
 * A link with sitemap hints (lastmod, changefreq) is registered but always passed on: the URL was
 * usually found first on an HTML page, and only the sitemap says how often it changes. Sitemaps
 * contribute links only when their content changed, so this costs one read per hinted URL then.
 */
export async function filterSeenLinks(
  store: FingerprintStore,
  links: readonly Link[],
  source: { url: string; fetchedAt: number },
  ttlMs: number,
  options: { againFromSource?: boolean } = {},
): Promise<SeenFilterResult> {
  if (links.length === 0) return { links: [], seen: 0 };
  const sourceTag = `:${urlId(source.url).slice(0, 12)}`;
  const registration = `${source.fetchedAt}${sourceTag}`;
  const results = await store.putIfAbsent(
    links.map((link) => ({ namespace: URL_NAMESPACE, key: urlId(link.url).slice(0, 20), value: registration, ttlMs })),
  );
  // againFromSource: links registered by any fetch of the same page pass too (a fetch whose outlinks may be lost).
  const ownedBySource = (existing: string | null) =>
    existing === registration || (options.againFromSource === true && existing?.endsWith(sourceTag) === true);
  const kept = links.filter(
    (link, index) => results[index]!.created || ownedBySource(results[index]!.existing) || hasSitemapHints(link),
  );
  return { links: kept, seen: links.length - kept.length };
}

function hasSitemapHints(link: Link): boolean {
  return (link.lastmod ?? null) !== null || (link.changefreq ?? null) !== null;
}
