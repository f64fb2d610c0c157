import { createLinkRecord, createScope, MAX_ANCHORS, urlId, type CrawlJob, type LinkRecord, type Outlinks, type Scope } from '@crawler/core';
import { discoveryPlan } from './policy/recrawl-plan.js';

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
export function linkCandidates(message: Outlinks, job: CrawlJob, jobScope?: Scope): LinkCandidate[] {
  if (message.depth > job.maxDepth && message.kind !== 'seed') return [];
  const scope = message.kind === 'page' || message.kind === 'seed' || !message.sourceUrl ? null : (jobScope ?? createScope(job));
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

/** A queued record, due now, for a link the link base does not know yet, with its value, level and a random rank. */
export function recordForCandidate(candidate: LinkCandidate, message: Outlinks, now: number, random: () => number = Math.random): LinkRecord | null {
  let record: LinkRecord;
  try {
    record = createLinkRecord(candidate.url, { jobId: message.jobId, depth: message.depth, source: candidate.source, discoveredAt: message.discoveredAt, nextFetchAt: now, anchors: candidate.anchors, rank: random() });
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
  return next.fetchCount === 0 && next.status === 'queued' && next.trafficClass === 'discovery' ? { ...next, ...discoveryPlan(next) } : next;
}
