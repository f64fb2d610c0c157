/** Outcomes that are not failures: everything else on crawl.status is counted as an error class. */
const SUCCESSES = new Set(['ok', 'redirect', 'not_modified']);

/**
 * The outcomes of crawl.status records over a sliding time window: answers and error classes
 * of the last minute, without keeping more than the window.
 */
export class OutcomeWindow {
  private entries: { at: number; outcome: string }[] = [];

  constructor(private readonly windowMs: number) {}

  add(at: number, outcome: string): void {
    this.entries.push({ at, outcome });
  }

  /** Counts by outcome of records stamped in the window ending at `now`. */
  counts(now: number): { answers: number; errors: Record<string, number> } {
    const from = now - this.windowMs;
    this.entries = this.entries.filter((entry) => entry.at >= from);
    const errors: Record<string, number> = {};
    let answers = 0;
    for (const entry of this.entries) {
      if (entry.at > now) continue;
      answers++;
      if (!SUCCESSES.has(entry.outcome)) errors[entry.outcome] = (errors[entry.outcome] ?? 0) + 1;
    }
    return { answers, errors: Object.fromEntries(Object.entries(errors).sort((a, b) => b[1] - a[1])) };
  }
}
