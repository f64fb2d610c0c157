import { createLinkRecord, createScope, type CrawlJob, type LinkRecord, type Outlinks } from '@crawler/core';

const MAX_ANCHORS = 5;

/**
 * Link base records for the links of one crawl.links message, due now. Seeds skip the scope
 * rules (they define it); links beyond the job's depth are dropped here as a second guard.
 */
export function newLinkRecords(message: Outlinks, job: CrawlJob, now: number): LinkRecord[] {
  if (message.depth > job.maxDepth && message.kind !== 'seed') return [];
  const scope = createScope(job);
  const records = new Map<string, LinkRecord>();
  for (const link of message.links) {
    let parsed: URL;
    try {
      parsed = new URL(link.url);
    } catch {
      continue;
    }
    if (message.kind !== 'seed' && message.sourceUrl && scope.check(parsed, new URL(message.sourceUrl)) !== null) continue;
    const record = createLinkRecord(link.url, { jobId: message.jobId, depth: message.depth, source: message.kind === 'page' ? link.source : message.kind, discoveredAt: message.discoveredAt, nextFetchAt: now, anchors: [] }, parsed);
    const existing = records.get(record.id);
    if (existing) {
      if (link.anchor && existing.anchors.length < MAX_ANCHORS) existing.anchors.push(link.anchor);
      continue;
    }
    if (link.anchor) record.anchors.push(link.anchor);
    records.set(record.id, record);
  }
  return [...records.values()];
}
