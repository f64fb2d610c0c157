/** What a judge sees of a page: its main text without template noise. */
export interface JudgeInput {
  url: string;
  title: string | null;
  text: string;
  lang: string | null;
}

export interface Judgement {
  /** A label without spaces: "ok", "harmful", or a classifier's own label. */
  verdict: string;
  /** The rule category or classifier class that decided; null when nothing matched. */
  category: string | null;
  /** Which rules matched, or what the classifier said. */
  reasons: string[];
}

/**
 * Decides what a page's content is. Called only for content whose fingerprint is new: every
 * duplicate and every unchanged re-crawl reuses the verdict stored with the digest.
 */
export interface Judge {
  readonly name: string;
  judge(input: JudgeInput): Promise<Judgement>;
  close?(): Promise<void>;
}

/** The verdict as stored and sent on the status: "label" or "label:category". */
export function verdictLabel(judgement: Judgement): string {
  const clean = (value: string) => value.trim().replace(/[\s:]+/g, '_') || 'unknown';
  return judgement.category ? `${clean(judgement.verdict)}:${clean(judgement.category)}` : clean(judgement.verdict);
}

export function parseVerdictLabel(label: string): { verdict: string; category: string | null } {
  const colon = label.indexOf(':');
  return colon < 0
    ? { verdict: label, category: null }
    : { verdict: label.slice(0, colon), category: label.slice(colon + 1) };
}
