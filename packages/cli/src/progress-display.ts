import type { CrawlSnapshot } from '@crawler/scheduler';

/** Pages with a body processed: the figure pages/s is about. */
export function pagesDone(snapshot: CrawlSnapshot): number {
  return (snapshot.counters.outcomes.get('ok') ?? 0) + (snapshot.counters.outcomes.get('noindex') ?? 0);
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
  ) {}

  update(snapshot: CrawlSnapshot, elapsedMs: number): void {
    const seconds = elapsedMs / 1000;
    const line = `[${seconds.toFixed(1)}s] pages ${pagesDone(snapshot)} · answered ${answered(snapshot)} · known ${snapshot.total} · pending ${snapshot.pending} · in flight ${snapshot.inFlight} · ${(pagesDone(snapshot) / Math.max(seconds, 0.001)).toFixed(1)} pages/s`;
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
