import {
  canonicalize,
  createScope,
  jobCanonicalizeOptions,
  type CrawlJob,
  type DropReason,
  type Link,
} from '@crawler/core';
import type { RawLink } from './html/raw-link.js';
import { HostBudget } from './host-budget.js';

const NOFOLLOW_RELS = /\b(?:nofollow|ugc|sponsored)\b/;

export interface LinkFilterInput {
  links: readonly RawLink[];
  /** Distinct links the document had past the collection bound (see RAW_LINKS_PER_KEPT_LINK). */
  overflow: number;
  /** `<base href>` resolved, else the final URL. */
  base: URL;
  page: URL;
  depth: number;
  /** The page says nofollow (meta robots or X-Robots-Tag). */
  nofollow: boolean;
}

export interface LinkFilterResult {
  links: Link[];
  dropped: Map<DropReason, number>;
}

export type LinkFilter = (input: LinkFilterInput) => LinkFilterResult;

/**
 * Turns raw links into the page's outlinks: nofollow, canonical form (the job's URL options),
 * one per URL, depth, the job's scope and entry-page rules, the per-page cap, then the per-host
 * budget. Every link that does not make it is counted under the first reason that refused it.
 * The cap (`maxLinks`) counts what is passed on: distinct in-scope URLs, so neither repeats nor
 * off-site links use it up. The canonical link is recorded as the page's canonical URL, not followed.
 */
export function createLinkFilter(job: CrawlJob, followNofollow: boolean, maxLinks: number): LinkFilter {
  const scope = createScope(job);
  const canonicalOptions = jobCanonicalizeOptions(job);
  const budget = new HostBudget(job.scope.maxUrlsPerHost);
  return (input) => {
    const dropped = new Map<DropReason, number>();
    const drop = (reason: DropReason, count = 1) => dropped.set(reason, (dropped.get(reason) ?? 0) + count);
    if (input.overflow > 0) drop('links-capped', input.overflow);
    const links: Link[] = [];
    const seen = new Set<string>();
    const depthOk = scope.depthAllowed(input.depth + 1);
    for (const raw of input.links) {
      if (raw.source === 'canonical') continue;
      if (input.nofollow || (!followNofollow && raw.rel && NOFOLLOW_RELS.test(raw.rel))) {
        drop('nofollow');
        continue;
      }
      const canonical = canonicalize(raw.href, input.base, canonicalOptions);
      if (!canonical.ok) {
        drop(canonical.reason);
        continue;
      }
      if (seen.has(canonical.url)) {
        drop('duplicate');
        continue;
      }
      seen.add(canonical.url);
      if (!depthOk) {
        drop('depth');
        continue;
      }
      const reason = scope.check(canonical.parsed, input.page) ?? scope.entryRule(canonical.parsed, input.page);
      if (reason) {
        drop(reason);
        continue;
      }
      if (links.length >= maxLinks) {
        drop('links-capped');
        continue;
      }
      if (!budget.admit(canonical.parsed.host, canonical.url)) {
        drop('host-budget');
        continue;
      }
      links.push({
        url: canonical.url,
        anchor: raw.anchor,
        rel: raw.rel,
        source: raw.source,
        lastmod: raw.lastmod ?? null,
        changefreq: raw.changefreq ?? null,
      });
    }
    return { links, dropped };
  };
}
