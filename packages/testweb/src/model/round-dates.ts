// Rounds stand for days: round 0 is 2026-01-01. Last-Modified, sitemap lastmod and feed dates use it.
const ROUND_ZERO = Date.UTC(2026, 0, 1);
const DAY_MS = 86_400_000;

export function roundDate(round: number): Date {
  return new Date(ROUND_ZERO + round * DAY_MS);
}

/** The sitemap changefreq that matches a per-round (per-day) change probability. */
export function changeFrequency(probability: number): 'daily' | 'weekly' | 'monthly' | 'never' {
  if (probability >= 1) return 'daily';
  if (probability >= 0.3) return 'weekly';
  if (probability > 0) return 'monthly';
  return 'never';
}
