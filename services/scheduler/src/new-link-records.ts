import { createLinkRecord, createScope, urlId, type CrawlJob, type LinkRecord, type Outlinks } from '@crawler/core';

const MAX_ANCHORS = 5;

export interface LinkCandidate {
  id: string;
  url: string;
  anchors: string[];
  source: string;
}

/**
 * The distinct links of one crawl.links message with their link base ids, cheap to compute so
 * known URLs can be skipped before any record is built. Page links were scoped by link
 * extraction; links from robots.txt, sitemaps and redirects are scoped here. Seeds define the
 * scope. Links beyond the job's depth are dropped as a second guard.
 */
export function linkCandidates(message: Outlinks, job: CrawlJob): LinkCandidate[] {
  if (message.depth > job.maxDepth && message.kind !== 'seed') return [];
  const scope = message.kind === 'page' || message.kind === 'seed' || !message.sourceUrl ? null : createScope(job);
  const source = message.sourceUrl ? new URL(message.sourceUrl) : null;
  const byId = new Map<string, LinkCandidate>();
  for (const link of message.links) {
    const id = urlId(link.url);
    const existing = byId.get(id);
    if (existing) {
      if (link.anchor && existing.anchors.length < MAX_ANCHORS) existing.anchors.push(link.anchor);
      continue;
    }
    if (scope && source) {
      let parsed: URL;
      try {
        parsed = new URL(link.url);
      } catch {
        continue;
      }
      if (scope.check(parsed, source) !== null) continue;
    }
    byId.set(id, { id, url: link.url, anchors: link.anchor ? [link.anchor] : [], source: message.kind === 'page' ? link.source : message.kind });
  }
  return [...byId.values()];
}

/** A queued record, due now, for a link the link base does not know yet. */
export function recordForCandidate(candidate: LinkCandidate, message: Outlinks, now: number): LinkRecord | null {
  try {
    return createLinkRecord(candidate.url, { jobId: message.jobId, depth: message.depth, source: candidate.source, discoveredAt: message.discoveredAt, nextFetchAt: now, anchors: candidate.anchors });
  } catch {
    return null;
  }
}
