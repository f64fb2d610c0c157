import type { CrawlSnapshot } from '@crawler/scheduler';
import { formatSpan } from './ops/format.js';
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
  /** URLs due now and not handed out (a stopped crawl's rest); 0 after a crawl that ran to the end. */
  dueNow: number;
  /** When the next known URL not due now comes due (ISO time on the scheduler's clock), null if none ever will. */
  nextDueAt: string | null;
  nextDueInSeconds: number | null;
  output: { pages: string; linkbase: string };
}

/**
 * `snapshot` must carry the due statistics (snapshot({ withDue: true })); `now` is the scheduler's
 * clock, against which the next due time is told.
 */
export function buildSummary(
  snapshot: CrawlSnapshot,
  stopReason: StopReason,
  elapsedMs: number,
  output: CrawlSummary['output'],
  now: number,
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
    dueNow: snapshot.due ?? 0,
    nextDueAt: snapshot.nextDueAt === null ? null : new Date(snapshot.nextDueAt).toISOString(),
    nextDueInSeconds: snapshot.nextDueAt === null ? null : Math.max(0, Math.ceil((snapshot.nextDueAt - now) / 1000)),
    output,
  };
}

/** A duration rounded up to whole days, hours, minutes or seconds, as --clock-offset takes it. */
function wholeUnits(seconds: number): string {
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3_600],
    ['m', 60],
  ] as const)
    if (seconds >= size) return `${Math.ceil(seconds / size)}${unit}`;
  return `${Math.max(1, seconds)}s`;
}

function nextDueLine(summary: CrawlSummary): string {
  if (summary.dueNow > 0) return `now: ${summary.dueNow} URLs (run again with the same --out to go on)`;
  if (summary.nextDueAt === null) return 'none: every known URL is final (gone, blocked, a duplicate or a redirect)';
  return `${summary.nextDueAt.slice(0, 16).replace('T', ' ')} UTC (in ${formatSpan(summary.nextDueInSeconds! * 1000)})`;
}

/**
 * What a run with nothing due says instead of a summary of zeros: when the next URL comes due and
 * how to re-check sooner. The previous run's crawl-summary.json is kept, and it says so.
 */
export function formatNothingDue(summary: CrawlSummary, summaryFile: string, kept: boolean): string {
  const lines = [
    `Nothing to do: none of the ${summary.urlsKnown} known URLs is due yet, so nothing was fetched.`,
    `  next due            ${nextDueLine(summary)}`,
    `  summary             ${kept ? `${summaryFile} still holds the previous run's` : 'none written'}`,
  ];
  if (summary.nextDueInSeconds !== null)
    lines.push(
      `  to re-check now     run again with --clock-offset ${wholeUnits(summary.nextDueInSeconds)}` +
        " (the scheduler's clock runs that far ahead, and later visits are planned from it)",
    );
  return lines.join('\n');
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
    `  next due            ${nextDueLine(summary)}`,
    `  output              pages: ${summary.output.pages}; link base: ${summary.output.linkbase}`,
  ].join('\n');
}
