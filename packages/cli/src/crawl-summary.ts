import type { CrawlSnapshot } from '@crawler/scheduler';
import { answered, pagesDone } from './progress-display.js';
import type { StopReason } from './one-process-crawl.js';

export interface CrawlSummary {
  stopReason: StopReason;
  elapsedSeconds: number;
  urlsKnown: number;
  linkStatus: Record<string, number>;
  outcomes: Record<string, number>;
  decisions: Record<string, number>;
  pagesFetched: number;
  pagesStored: number;
  duplicatesRemoved: number;
  unchanged: number;
  linksSeen: number;
  linksDiscovered: number;
  requestsAnswered: number;
  pagesPerSecond: number;
  output: { pages: string; linkbase: string };
}

export function buildSummary(
  snapshot: CrawlSnapshot,
  stopReason: StopReason,
  elapsedMs: number,
  output: CrawlSummary['output'],
  atStart?: CrawlSnapshot,
): CrawlSummary {
  const decisions = Object.fromEntries(snapshot.counters.changes);
  const seconds = elapsedMs / 1000;
  return {
    stopReason,
    elapsedSeconds: Math.round(seconds * 100) / 100,
    urlsKnown: snapshot.total,
    linkStatus: snapshot.byStatus,
    outcomes: Object.fromEntries([...snapshot.counters.outcomes].sort((a, b) => b[1] - a[1])),
    decisions,
    pagesFetched: pagesDone(snapshot, atStart),
    pagesStored: (decisions.new ?? 0) + (decisions.changed ?? 0),
    duplicatesRemoved: (decisions.duplicate ?? 0) + (decisions.near_duplicate ?? 0),
    unchanged: decisions.unchanged ?? 0,
    linksSeen: snapshot.counters.linksReceived,
    linksDiscovered: snapshot.counters.discovered,
    requestsAnswered: answered(snapshot),
    pagesPerSecond: Math.round((pagesDone(snapshot, atStart) / Math.max(seconds, 0.001)) * 10) / 10,
    output,
  };
}

export function formatSummary(summary: CrawlSummary): string {
  const list = (record: Record<string, number>) =>
    Object.entries(record)
      .map(([key, value]) => `${key} ${value}`)
      .join(' · ') || 'none';
  return [
    `Crawl ${summary.stopReason === 'complete' ? 'complete' : `stopped (${summary.stopReason})`} in ${summary.elapsedSeconds}s`,
    `  pages fetched       ${summary.pagesFetched} (${summary.pagesPerSecond} pages/s)`,
    `  fetch outcomes      ${list(summary.outcomes)}`,
    `  pages stored        ${summary.pagesStored} (new ${summary.decisions.new ?? 0}, changed ${summary.decisions.changed ?? 0})`,
    `  duplicates removed  ${summary.duplicatesRemoved}; unchanged ${summary.unchanged}`,
    `  links               ${summary.linksSeen} seen, ${summary.linksDiscovered} new URLs`,
    `  link base           ${summary.urlsKnown} URLs: ${list(summary.linkStatus)}`,
    `  output              pages: ${summary.output.pages}; link base: ${summary.output.linkbase}`,
  ].join('\n');
}
