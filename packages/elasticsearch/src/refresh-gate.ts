import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Makes this process's own writes visible to search when a search needs them, at most once per
 * interval. Writes go out without `refresh` (a refresh per write makes a segment per write); a
 * search after writes waits for one shared refresh instead. The trade-off: a findDue right after
 * a write may wait up to the interval, and writes of other processes show up with the index's
 * own periodic refresh (1 s by default), not sooner.
 */
export class RefreshGate {
  /** Writes acknowledged so far. */
  private written = 0;
  /** Writes a completed refresh is known to include. */
  private visible = 0;
  private lastStartedAt = Number.NEGATIVE_INFINITY;
  private pending: Promise<void> | null = null;

  constructor(
    private readonly refresh: () => Promise<void>,
    private readonly minIntervalMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Call once a write was acknowledged, or may have been applied (a failed bulk can be partly done). */
  wrote(): void {
    this.written++;
  }

  /** Resolves once every write acknowledged before the call is visible to search. */
  async awaitVisible(): Promise<void> {
    const target = this.written;
    while (this.visible < target) await (this.pending ??= this.run(true));
  }

  /** Refreshes now, whatever the interval (an explicit flush). */
  async refreshNow(): Promise<void> {
    if (this.pending) await this.pending.catch(() => undefined);
    await (this.pending ??= this.run(false));
  }

  private async run(paced: boolean): Promise<void> {
    try {
      const wait = paced ? this.lastStartedAt + this.minIntervalMs - this.clock() : 0;
      if (wait > 0) await sleep(wait);
      // Writes acknowledged before the refresh starts are in it; later ones wait for the next.
      const covers = this.written;
      this.lastStartedAt = this.clock();
      await this.refresh();
      this.visible = Math.max(this.visible, covers);
    } finally {
      this.pending = null;
    }
  }
}
