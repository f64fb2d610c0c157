import { describe, expect, it } from 'vitest';
import { changeProbability, DAY_MS, estimateChangeRate, ratePrior, timeToProbability } from './change-rate.js';

/** Observations of a page changing with probability `p` per day, fetched every `days` days, `n` times. */
function history(p: number, days: number, n: number, seed = 7): { ms: number; changed: boolean }[] {
  let state = seed;
  const random = () => (state = (state * 48271) % 2147483647) / 2147483647;
  return Array.from({ length: n }, () => {
    let changed = false;
    for (let d = 0; d < days; d++) if (random() < p) changed = true;
    return { ms: days * DAY_MS, changed };
  });
}

describe('change rate estimator', () => {
  const weak = { ratePerDay: 1, weight: 0.1 };

  it('recovers a Poisson rate from regular re-fetches', () => {
    // A daily change probability p is the rate -ln(1 - p).
    for (const [p, days] of [
      [0.1, 3],
      [0.3, 1],
      [0.05, 7],
    ] as const) {
      const estimate = estimateChangeRate(history(p, days, 400), weak);
      expect(estimate).toBeGreaterThan(-Math.log(1 - p) * 0.8);
      expect(estimate).toBeLessThan(-Math.log(1 - p) * 1.25);
    }
  });

  it('handles irregular intervals: long unchanged stretches pull the rate down, short changed ones up', () => {
    const slow = estimateChangeRate(
      [
        { ms: 30 * DAY_MS, changed: false },
        { ms: 60 * DAY_MS, changed: false },
        { ms: 10 * DAY_MS, changed: true },
      ],
      weak,
    );
    const fast = estimateChangeRate(
      [
        { ms: DAY_MS / 4, changed: true },
        { ms: DAY_MS / 2, changed: true },
        { ms: DAY_MS, changed: false },
      ],
      weak,
    );
    expect(slow).toBeLessThan(0.05);
    expect(fast).toBeGreaterThan(1);
  });

  it('returns the prior without history, and moves away from it as evidence comes', () => {
    expect(estimateChangeRate([], { ratePerDay: 0.25, weight: 1 })).toBeCloseTo(0.25, 5);
    const prior = { ratePerDay: 1, weight: 1 };
    const oneQuiet = estimateChangeRate([{ ms: 2 * DAY_MS, changed: false }], prior);
    const manyQuiet = estimateChangeRate(
      Array.from({ length: 10 }, () => ({ ms: 2 * DAY_MS, changed: false })),
      prior,
    );
    expect(oneQuiet).toBeLessThan(1);
    expect(manyQuiet).toBeLessThan(oneQuiet / 4);
  });

  it('takes the sitemap changefreq as a stronger prior than the job default', () => {
    expect(ratePrior('daily', 0.1)).toEqual({ ratePerDay: 1, weight: 1 });
    expect(ratePrior('Weekly', 0.1).ratePerDay).toBeCloseTo(1 / 7);
    expect(ratePrior(null, 0.1)).toEqual({ ratePerDay: 0.1, weight: 0.5 });
    expect(ratePrior('sometimes', 0.1)).toEqual({ ratePerDay: 0.1, weight: 0.5 });
  });

  it('converts between rates, probabilities and waiting times', () => {
    expect(changeProbability(Math.log(2), DAY_MS)).toBeCloseTo(0.5);
    expect(timeToProbability(Math.log(2), 0.5)).toBeCloseTo(DAY_MS);
    expect(changeProbability(1, 0)).toBe(0);
  });
});
