import { errorMessage, type Logger } from '@crawler/core';
import type { DedupMetrics } from '../dedup-metrics.js';
import { parseVerdictLabel, verdictLabel, type Judge, type Judgement, type JudgeInput } from './judge.js';

export interface ResolvedVerdict {
  /** As stored and sent on the status; null when there is no judge or it failed. */
  label: string | null;
  /** True when the judge ran for this page (its label is then to be stored with the digest). */
  judged: boolean;
  judgement: Judgement | null;
}

/**
 * The verdict cache: a verdict lives with the digest of the content it judged (see
 * registration.ts). A page whose content already has one reuses it; the judge runs only for
 * content without one, and a judge that fails leaves it without, to be judged at the next sighting.
 */
export class VerdictCache {
  private readonly harmful: ReadonlySet<string>;

  constructor(
    private readonly judge: Judge | null,
    harmfulVerdicts: readonly string[],
    private readonly metrics: DedupMetrics,
    private readonly logger: Logger | null,
  ) {
    this.harmful = new Set(harmfulVerdicts);
  }

  get judgeName(): string {
    return this.judge?.name ?? 'none';
  }

  async resolve(stored: string | null, input: JudgeInput): Promise<ResolvedVerdict> {
    if (stored !== null) {
      const parsed = parseVerdictLabel(stored);
      this.metrics.verdict(parsed.verdict, 'cached');
      return { label: stored, judged: false, judgement: { ...parsed, reasons: [] } };
    }
    if (!this.judge) return { label: null, judged: false, judgement: null };
    const started = performance.now();
    try {
      const judgement = await this.judge.judge(input);
      this.metrics.judged(this.judge.name, 'ok', (performance.now() - started) / 1000);
      this.metrics.verdict(judgement.verdict, 'judged');
      return { label: verdictLabel(judgement), judged: true, judgement };
    } catch (error) {
      this.metrics.judged(this.judge.name, 'error', (performance.now() - started) / 1000);
      this.logger?.warn(
        { url: input.url, judge: this.judge.name, error: errorMessage(error) },
        'page passed on unjudged',
      );
      return { label: null, judged: false, judgement: null };
    }
  }

  isHarmful(label: string | null): boolean {
    return label !== null && this.harmful.has(parseVerdictLabel(label).verdict);
  }
}
