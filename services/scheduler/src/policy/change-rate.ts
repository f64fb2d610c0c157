import type { ChangeObservation } from '@crawler/core';

export const DAY_MS = 86_400_000;

/**
 * What is believed about a page's change rate before its own history: a rate (changes per day)
 * and how many observations that belief is worth.
 */
export interface RatePrior {
  ratePerDay: number;
  weight: number;
}

/** Sitemap changefreq values as changes per day (sitemaps.org). */
const CHANGEFREQ_PER_DAY: Record<string, number> = {
  always: 1440,
  hourly: 24,
  daily: 1,
  weekly: 1 / 7,
  monthly: 1 / 30,
  yearly: 1 / 365,
  never: 1 / 3650,
};
/** A site's own changefreq is worth one observation: a hint, often wrong, that a few fetches overrule. */
const CHANGEFREQ_WEIGHT = 1;
/** The job's default interval is a guess about any page: worth half an observation (tuned on the test web's rounds, docs/SCHEDULING.md). */
const DEFAULT_WEIGHT = 0.5;

export function changefreqRate(changefreq: string | null): number | null {
  return changefreq ? (CHANGEFREQ_PER_DAY[changefreq.trim().toLowerCase()] ?? null) : null;
}

/** The sitemap's changefreq if it gave one, else the rate at which the job's first re-crawl interval is the right one. */
export function ratePrior(changefreq: string | null, defaultRatePerDay: number): RatePrior {
  const hinted = changefreqRate(changefreq);
  return hinted === null
    ? { ratePerDay: defaultRatePerDay, weight: DEFAULT_WEIGHT }
    : { ratePerDay: hinted, weight: CHANGEFREQ_WEIGHT };
}

const MIN_RATE = 1e-6;
const MAX_RATE = 1e5;

/**
 * Maximum a-posteriori estimate of a Poisson change rate (changes per day) from re-fetches at
 * irregular intervals (Cho & Garcia-Molina, "Estimating frequency of change", 2003): a fetch after
 * t days that saw a change has likelihood 1 - e^(-λt), one that saw none e^(-λt). The prior is a
 * Gamma with mode `prior.ratePerDay`, worth `prior.weight` observations, so one unlucky fetch does
 * not swing the estimate and a page without history gets the prior. The log-posterior is concave,
 * its derivative falls monotonically, and bisection on log λ finds its single root.
 */
export function estimateChangeRate(history: readonly ChangeObservation[], prior: RatePrior): number {
  const shape = prior.weight; // Gamma alpha - 1
  const inverseScale = prior.weight / Math.max(prior.ratePerDay, MIN_RATE); // Gamma beta, in days
  let unchangedDays = 0;
  const changedDays: number[] = [];
  for (const observation of history) {
    const days = Math.max(0, observation.ms) / DAY_MS;
    if (days === 0) continue;
    if (observation.changed) changedDays.push(days);
    else unchangedDays += days;
  }
  const slope = (rate: number): number => {
    let value = shape / rate - inverseScale - unchangedDays;
    // t / (e^(λt) - 1): the pull of each change seen towards higher rates.
    for (const days of changedDays) value += days / Math.expm1(rate * days);
    return value;
  };
  let low = Math.log(MIN_RATE);
  let high = Math.log(MAX_RATE);
  if (slope(Math.exp(low)) <= 0) return MIN_RATE;
  if (slope(Math.exp(high)) >= 0) return MAX_RATE;
  for (let i = 0; i < 60; i++) {
    const middle = (low + high) / 2;
    if (slope(Math.exp(middle)) > 0) low = middle;
    else high = middle;
  }
  return Math.exp((low + high) / 2);
}

/** Probability that a page changing at `ratePerDay` changed at least once within `ms`. */
export function changeProbability(ratePerDay: number, ms: number): number {
  return -Math.expm1((-ratePerDay * ms) / DAY_MS);
}

/** Time until a page changing at `ratePerDay` has changed with probability `probability`. */
export function timeToProbability(ratePerDay: number, probability: number): number {
  return (-Math.log1p(-probability) / ratePerDay) * DAY_MS;
}
