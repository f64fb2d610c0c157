import {
  canonicalize,
  createLinkRecord,
  createScope,
  linkRecordId,
  jobCanonicalizeOptions,
  MAX_ANCHORS,
  type CrawlJob,
  type LinkRecord,
  type Outlinks,
  type Scope,
  fetchNow,
  withNextFetch,
} from '@crawler/core';
import { discoveryPlan } from './policy/recrawl-plan.js';

export interface LinkCandidate {
  id: string;
  url: string;
  anchors: string[];
  source: string;
  /** The sitemap's hints for the URL (null when the links came from elsewhere). */
  hints: SitemapHints;
}

export interface SitemapHints {
  /** Epoch ms. */
  lastmod: number | null;
  changefreq: string | null;
}

/**
 * The distinct links of one crawl.links message with their link base ids, cheap to compute so
 * known URLs can be skipped before any record is built. Page links were canonicalized with the
 * job's URL options and scoped by link extraction; the links of every other message (robots.txt
 * sitemaps, script fetches, seeds) are canonicalized with them and scoped here, so a URL enters
 * the link base in one form whoever wrote it. Seeds define the scope. Links beyond the job's depth
 * are dropped as a second guard.
 */
export function linkCandidates(message: Outlinks, job: CrawlJob, jobScope?: Scope): LinkCandidate[] {
  if (message.depth > job.maxDepth && message.kind !== 'seed') return [];
  const fromPage = message.kind === 'page';
  const scope = fromPage || message.kind === 'seed' || !message.sourceUrl ? null : (jobScope ?? createScope(job));
  const canonicalOptions = fromPage ? null : jobCanonicalizeOptions(job);
  const source = message.sourceUrl ? new URL(message.sourceUrl) : null;
  const byId = new Map<string, LinkCandidate>();
  for (const link of message.links) {
    let url = link.url;
    let parsed: URL | null = null;
    if (canonicalOptions) {
      const canonical = canonicalize(url, undefined, canonicalOptions);
      if (!canonical.ok) continue;
      url = canonical.url;
      parsed = canonical.parsed;
    }
    const id = linkRecordId(message.jobId, url);
    const existing = byId.get(id);
    const hints: SitemapHints = { lastmod: link.lastmod ?? null, changefreq: link.changefreq ?? null };
    if (existing) {
      if (link.anchor && existing.anchors.length < MAX_ANCHORS) existing.anchors.push(link.anchor);
      existing.hints = mergeHints(existing.hints, hints);
      continue;
    }
    if (scope && source && parsed && scope.check(parsed, source) !== null) continue;
    byId.set(id, {
      id,
      url,
      anchors: link.anchor ? [link.anchor] : [],
      source: fromPage ? link.source : message.kind,
      hints,
    });
  }
  return [...byId.values()];
}

/** A queued record, due now, for a link the link base does not know yet, with its value, level and a random rank. */
export function recordForCandidate(
  candidate: LinkCandidate,
  message: Outlinks,
  now: number,
  random: () => number = Math.random,
): LinkRecord | null {
  let record: LinkRecord;
  try {
    record = withNextFetch(
      createLinkRecord(candidate.url, {
        jobId: message.jobId,
        depth: message.depth,
        source: candidate.source,
        discoveredAt: message.discoveredAt,
        anchors: candidate.anchors,
        rank: random(),
        sitemapLastmod: candidate.hints.lastmod,
        sitemapChangefreq: candidate.hints.changefreq,
      }),
      fetchNow,
      now,
    );
  } catch {
    return null;
  }
  return { ...record, ...discoveryPlan(record) };
}

/**
 * A known URL linked once more: its inlinks and anchor texts grow (anchors capped, repeats
 * skipped). A URL still waiting for its first visit gets its value and level again; a fetched (or
 * monitored) one gets them at its next re-crawl plan.
 */
export function addInlink(record: LinkRecord, anchors: readonly string[]): LinkRecord {
  const merged = [...record.anchors];
  for (const anchor of anchors) if (merged.length < MAX_ANCHORS && !merged.includes(anchor)) merged.push(anchor);
  const next = { ...record, inlinks: record.inlinks + 1, anchors: merged };
  return next.fetchCount === 0 && next.status === 'queued' && next.trafficClass === 'discovery'
    ? { ...next, ...discoveryPlan(next) }
    : next;
}

/** Statuses of a fetched URL waiting for its next re-crawl: the ones a newer lastmod can bring forward. */
const RECRAWLED = new Set(['fetched', 'error']);

/**
 * A known URL listed by a sitemap again: its stored hints give way to these unless these are
 * older (a lastmod before the stored one: another, stale sitemap lists the URL too). A hint the
 * sitemap leaves out keeps its stored value. `changefreq` acts at the URL's next re-crawl plan (the
 * change-rate prior) and before the first fetch `lastmod` is "unchanged since". A new lastmod after
 * the last copy we have says the page changed since: its visit is brought forward to now (not for a
 * lastmod in the future, and not for one already stored, so a re-read sitemap does it once).
 * Returns the record itself when nothing changes, so no write is made.
 */
export function updateSitemapHints(record: LinkRecord, hints: SitemapHints, now: number): LinkRecord {
  if (hints.lastmod === null && hints.changefreq === null) return record;
  if (hints.lastmod !== null && record.sitemapLastmod !== null && hints.lastmod < record.sitemapLastmod) return record;
  const sitemapLastmod = hints.lastmod ?? record.sitemapLastmod;
  const sitemapChangefreq = hints.changefreq ?? record.sitemapChangefreq;
  if (sitemapLastmod === record.sitemapLastmod && sitemapChangefreq === record.sitemapChangefreq) return record;
  const modifiedSince =
    hints.lastmod !== null &&
    hints.lastmod !== record.sitemapLastmod &&
    hints.lastmod <= now &&
    record.lastSeenAt !== null &&
    hints.lastmod > record.lastSeenAt &&
    RECRAWLED.has(record.status);
  const hinted = { ...record, sitemapLastmod, sitemapChangefreq };
  return modifiedSince && record.nextFetchAt > now ? withNextFetch(hinted, fetchNow, now) : hinted;
}

/** Two listings of one URL in one message: the newer lastmod and the changefreq that came with it, else the first one given. */
function mergeHints(first: SitemapHints, next: SitemapHints): SitemapHints {
  const nextIsNewer = next.lastmod !== null && (first.lastmod === null || next.lastmod > first.lastmod);
  return nextIsNewer
    ? { lastmod: next.lastmod, changefreq: next.changefreq ?? first.changefreq }
    : { lastmod: first.lastmod, changefreq: first.changefreq ?? next.changefreq };
}
