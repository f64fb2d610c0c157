/**
 * The run's time budget. A step runs only if its estimate fits in what is left after the time
 * held back for later steps, so the last sections are not starved by the first; what does not
 * fit is recorded as skipped with the reason, never silently dropped.
 */
export class TimeBudget {
  readonly skipped: { what: string; why: string }[] = [];
  private readonly deadline: number;

  constructor(
    readonly totalMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.deadline = now() + totalMs;
  }

  remainingMs(): number {
    return Math.max(0, this.deadline - this.now());
  }

  /** True if `estimateMs` fits with `reserveMs` still left afterwards; else records the skip. */
  allows(what: string, estimateMs: number, reserveMs = 0): boolean {
    if (estimateMs + reserveMs <= this.remainingMs()) return true;
    this.skip(
      what,
      `needs about ${Math.ceil(estimateMs / 1000)} s, ${Math.floor(Math.max(0, this.remainingMs() - reserveMs) / 1000)} s of the budget left for it`,
    );
    return false;
  }

  skip(what: string, why: string): void {
    this.skipped.push({ what, why });
  }
}
