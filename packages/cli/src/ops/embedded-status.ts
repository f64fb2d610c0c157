import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cdxjCaptureKind, type LinkBaseStats } from '@crawler/core';
import type { CrawlSummary } from '../crawl-summary.js';
import { indexedCaptures } from '@crawler/embedded';
import { formatCount } from './format.js';
import { textLines } from '../terminal-text.js';

export interface EmbeddedStatus {
  at: number;
  out: string;
  linkbase: { known: number; due: number | null; leased: number; byStatus: Record<string, number> };
  /** Page versions in the WARC files (response lines of the files' CDXJ indexes). */
  storedVersions: number;
  /** crawl-summary.json of the last run that finished, if any. */
  lastRun: CrawlSummary | null;
  /** Warnings in crawl.log, by message. */
  warnings: Record<string, number>;
}

/**
 * What an embedded crawl left in its output folder: the link base (as of its last flush, every
 * 250 ms while it runs), the WARC index, the last run's summary and crawl.log's warnings.
 */
export function readEmbeddedStatus(out: string, stats: LinkBaseStats, at: number): EmbeddedStatus {
  const summaryPath = join(out, 'crawl-summary.json');
  return {
    at,
    out,
    linkbase: { known: stats.total, due: stats.due, leased: stats.leased, byStatus: stats.byStatus },
    storedVersions: indexedCaptures(join(out, 'warc')).filter((capture) => cdxjCaptureKind(capture) === 'page').length,
    lastRun: existsSync(summaryPath) ? (JSON.parse(readFileSync(summaryPath, 'utf8')) as CrawlSummary) : null,
    warnings: countWarnings(join(out, 'crawl.log')),
  };
}

function countWarnings(path: string): Record<string, number> {
  const counts: Record<string, number> = {};
  if (!existsSync(path)) return counts;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.includes('"level":"warn"') && !line.includes('"level":"error"')) continue;
    try {
      const { msg } = JSON.parse(line) as { msg?: string };
      if (msg) counts[msg] = (counts[msg] ?? 0) + 1;
    } catch {
      // A line cut by a crash.
    }
  }
  return counts;
}

export function formatEmbeddedStatus(status: EmbeddedStatus): string {
  const list = (record: Record<string, number>) =>
    Object.entries(record)
      .sort((a, b) => b[1] - a[1])
      .map(([name, count]) => `${name} ${formatCount(count)}`)
      .join(' · ') || 'none';
  const { linkbase, lastRun } = status;
  const when = new Date(status.at).toISOString().replace('T', ' ').slice(0, 19);
  const lines = [
    `crawl status · embedded crawl in ${status.out} · ${when}`,
    '',
    `link base   ${formatCount(linkbase.known)} known · ${linkbase.due === null ? '?' : formatCount(linkbase.due)} due · ${formatCount(linkbase.leased)} leased`,
    `            ${list(linkbase.byStatus)}`,
    `pages       ${formatCount(status.storedVersions)} versions stored (WARC files under ${join(status.out, 'warc')})`,
    lastRun
      ? `last run    ${lastRun.stopReason} in ${lastRun.elapsedSeconds}s: ${formatCount(lastRun.pagesFetched)} pages · outcomes ${list(lastRun.outcomes)}`
      : 'last run    none finished yet (running, or stopped by a crash)',
    Object.keys(status.warnings).length === 0 ? 'warnings    none' : 'warnings (crawl.log)',
  ];
  for (const [message, count] of Object.entries(status.warnings).sort((a, b) => b[1] - a[1]))
    lines.push(`  ${String(count).padStart(6)}  ${message}`);
  lines.push(
    '',
    `Details: crawler errors --out ${status.out} · crawler page get --out ${status.out} URL · ${join(status.out, 'crawl.log')}`,
  );
  return textLines(lines);
}
