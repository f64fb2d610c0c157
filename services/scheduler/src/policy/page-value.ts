import type { LinkRecord } from '@crawler/core';

/**
 * The weight function: how much a URL is worth fetching, in (0, 1], from what is known about it.
 * Each signal scores 0..1 and the value is their weighted sum (docs/SCHEDULING.md lists them):
 * shallow pages, pages many others link to with meaningful anchor text, short clean URLs, and pages
 * whose fetches keep yielding new URLs (hubs) are worth more.
 */
export const VALUE_WEIGHTS = { depth: 0.3, inlinks: 0.2, anchors: 0.15, shape: 0.15, type: 0.2 } as const;

/** New URLs per fetch at which a page counts as a full hub. */
export const HUB_YIELD = 5;
/** Inlinks at which the inlink signal is full (log scale below it). */
const FULL_INLINKS = 63;
const MIN_VALUE = 0.01;

/** What the source of a never-fetched URL says about its page type. */
const SOURCE_TYPE: Record<string, number> = { seed: 1, feed: 0.8, sitemap: 0.6, redirect: 0.5, canonical: 0.5 };
const DEFAULT_SOURCE_TYPE = 0.3;

/** Anchor texts that say nothing about the target. */
const GENERIC_ANCHOR =
  /^(?:read more|more|click here|here|link|next|previous|prev|back|continue|details|view|»|«|›|‹|>|<|\d+)$/i;
/** Paths and queries that look like listings, sort orders or calendars rather than content. */
const LISTING_SHAPE = /[?&](?:page|p|sort|order|filter|offset|start)=|\/page\/\d+|\/\d{4}\/\d{1,2}\/\d{1,2}\/?$/i;
const NON_HTML_EXTENSION = /\.(?:pdf|jpe?g|png|gif|svg|webp|zip|gz|xml|json|csv|mp[34]|avi|mov|docx?|xlsx?|pptx?)$/i;

export function depthScore(depth: number): number {
  return 1 / (1 + Math.max(0, depth));
}

export function inlinkScore(inlinks: number): number {
  return Math.min(1, Math.log2(1 + Math.max(0, inlinks)) / Math.log2(1 + FULL_INLINKS));
}

/** Distinct meaningful anchor texts: two or more is full. */
export function anchorScore(anchors: readonly string[]): number {
  const meaningful = new Set(
    anchors
      .map((anchor) => anchor.trim().toLowerCase())
      .filter((anchor) => anchor.length >= 3 && !GENERIC_ANCHOR.test(anchor)),
  );
  return Math.min(1, meaningful.size / 2);
}

/** 1 for a short, clean path; less for query parameters, deep paths, long URLs, listings and non-HTML files. */
export function shapeScore(url: string): number {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 0;
  }
  const params = [...parsed.searchParams.keys()].length;
  const segments = parsed.pathname.split('/').filter(Boolean).length;
  let score = 1;
  score -= Math.min(0.45, 0.15 * params);
  score -= Math.min(0.3, 0.1 * Math.max(0, segments - 2));
  if (url.length > 100) score -= 0.15;
  if (LISTING_SHAPE.test(`${parsed.pathname}${parsed.search}`)) score -= 0.2;
  if (NON_HTML_EXTENSION.test(parsed.pathname)) score -= 0.2;
  return Math.max(0, score);
}

/** Page-type feedback: for a fetched page, how much of a hub it proved to be; before that, what its source suggests. */
export function typeScore(record: Pick<LinkRecord, 'fetchCount' | 'linkYield' | 'source'>): number {
  if (record.fetchCount > 0) return hubScore(record.linkYield);
  return SOURCE_TYPE[record.source] ?? DEFAULT_SOURCE_TYPE;
}

export function hubScore(linkYield: number): number {
  return Math.min(1, Math.max(0, linkYield) / HUB_YIELD);
}

export function pageValue(
  record: Pick<LinkRecord, 'depth' | 'inlinks' | 'anchors' | 'url' | 'fetchCount' | 'linkYield' | 'source'>,
): number {
  const value =
    VALUE_WEIGHTS.depth * depthScore(record.depth) +
    VALUE_WEIGHTS.inlinks * inlinkScore(record.inlinks) +
    VALUE_WEIGHTS.anchors * anchorScore(record.anchors) +
    VALUE_WEIGHTS.shape * shapeScore(record.url) +
    VALUE_WEIGHTS.type * typeScore(record);
  return Math.min(1, Math.max(MIN_VALUE, value));
}
