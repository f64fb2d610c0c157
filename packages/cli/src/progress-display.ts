import type { CrawlSnapshot } from '@crawler/scheduler';

/**
 * Distinct pages this run fetched content for: URLs of the link base that hold a page (fetched,
 * or a duplicate of another), less those held when the run started. Re-fetches of a page are
 * requests, not more pages (they are under `answered`).
 */
export function pagesDone(snapshot: CrawlSnapshot, atStart?: CrawlSnapshot): number {
  const pages = (of: CrawlSnapshot) => (of.byStatus.fetched ?? 0) + (of.byStatus.duplicate ?? 0);
  return Math.max(0, pages(snapshot) - (atStart ? pages(atStart) : 0));
}

export function answered(snapshot: CrawlSnapshot): number {
  let total = 0;
  for (const count of snapshot.counters.outcomes.values()) total += count;
  return total;
}

/**
 * One status line, rewritten in place on a terminal; on a pipe or file, a plain line every few
 * seconds so logs stay readable.
 */
export class ProgressDisplay {
  private lastPlain = 0;
  private lastLength = 0;

  constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly plainEveryMs = 5000,
    /** The link base when the run started: a resumed crawl counts only its own pages. */
    private readonly atStart?: CrawlSnapshot,
  ) {}

  update(snapshot: CrawlSnapshot, elapsedMs: number): void {
    const seconds = elapsedMs / 1000;
    const pages = pagesDone(snapshot, this.atStart);
    const line = `[${seconds.toFixed(1)}s] pages ${pages} · answered ${answered(snapshot)} · known ${snapshot.total} · pending ${snapshot.pending} · in flight ${snapshot.inFlight} · ${(pages / Math.max(seconds, 0.001)).toFixed(1)} pages/s`;
    if (this.stream.isTTY) {
      this.stream.write(`\r${line}${' '.repeat(Math.max(0, this.lastLength - line.length))}`);
      this.lastLength = line.length;
    } else if (elapsedMs - this.lastPlain >= this.plainEveryMs) {
      this.stream.write(`${line}\n`);
      this.lastPlain = elapsedMs;
    }
  }

  /** Ends the progress line, once: what follows starts on a line of its own. */
  finish(): void {
    if (this.stream.isTTY && this.lastLength > 0) this.stream.write('\n');
    this.lastLength = 0;
  }
}
