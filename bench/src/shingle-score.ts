/**
 * The article-extraction-benchmark's own scoring (scrapinghub/article-extraction-benchmark
 * evaluate.py, as described in fixtures/README.md): word tokens, 4-token shingles with
 * counts, TP/FP/FN per page normalized to sum to 1, precision and recall averaged over pages, F1
 * from the two averages.
 */

export interface PageCounts {
  tp: number;
  fp: number;
  fn: number;
}

export interface QualityScore {
  precision: number;
  recall: number;
  f1: number;
  pages: number;
}

/**
 * Python's Unicode `\w`: letters, numbers and the underscore. Python's `str.isalnum` leaves out
 * combining marks, so `\p{M}` is not included here either.
 */
const TOKEN = /[\p{L}\p{N}_]+/gu;
const SHINGLE_SIZE = 4;

export function tokenize(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

/** Every run of 4 tokens with its count; a text of 1 to 3 tokens is one short shingle. */
export function shingles(text: string, size = SHINGLE_SIZE): Map<string, number> {
  const tokens = tokenize(text);
  const counts = new Map<string, number>();
  const last = Math.max(1, tokens.length - size + 1);
  for (let i = 0; i < last; i++) {
    const shingle = tokens.slice(i, i + size);
    if (shingle.length === 0) continue;
    // U+0001 cannot occur inside a \w token, so joining with it keeps shingles distinct.
    const key = shingle.join('\u0001');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** TP/FP/FN of one page, normalized to sum to 1 (so long articles do not weigh more). */
export function pageCounts(truth: string, prediction: string): PageCounts {
  const expected = shingles(truth);
  const predicted = shingles(prediction);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const [key, trueCount] of expected) {
    const predCount = predicted.get(key) ?? 0;
    tp += Math.min(trueCount, predCount);
    fn += Math.max(0, trueCount - predCount);
  }
  for (const [key, predCount] of predicted) fp += Math.max(0, predCount - (expected.get(key) ?? 0));
  const sum = tp + fp + fn;
  return sum > 0 ? { tp: tp / sum, fp: fp / sum, fn: fn / sum } : { tp, fp, fn };
}

function precisionOf({ tp, fp, fn }: PageCounts): number {
  if (fp === 0 && fn === 0) return 1;
  if (tp === 0 && fp === 0) return 0;
  return tp / (tp + fp);
}

function recallOf({ tp, fp, fn }: PageCounts): number {
  if (fp === 0 && fn === 0) return 1;
  if (tp === 0 && fn === 0) return 0;
  return tp / (tp + fn);
}

/** Pages that predicted nothing do not count for precision, pages with an empty truth not for recall (as upstream). */
export function scorePages(pages: PageCounts[]): QualityScore {
  const precisions = pages.filter((page) => page.tp + page.fp > 0).map(precisionOf);
  const recalls = pages.filter((page) => page.tp + page.fn > 0).map(recallOf);
  const precision = mean(precisions);
  const recall = mean(recalls);
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1, pages: pages.length };
}

function mean(values: number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}
