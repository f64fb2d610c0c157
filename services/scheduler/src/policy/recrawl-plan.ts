import type { LinkRecord, TrafficClass } from '@crawler/core';
import { changeProbability, estimateChangeRate, ratePrior, timeToProbability } from './change-rate.js';
import { levelOf } from './levels.js';
import { hubScore, pageValue } from './page-value.js';

export interface RecrawlPolicy {
  /** The re-crawl interval of a page nothing is known about (the job's recrawlIntervalMs). */
  initialIntervalMs: number;
  minIntervalMs: number;
  maxIntervalMs: number;
  /** A page is due again when it has changed with this probability. */
  targetProbability: number;
  /** A full hub is re-crawled this many times as often as its change rate alone asks. */
  hubBoost: number;
}

export interface RecrawlPlan {
  changeRate: number;
  intervalMs: number;
  value: number;
  priority: number;
  level: number;
  trafficClass: TrafficClass;
}

/** Pages estimated to change at least this often per day are re-checked for freshness. */
const FRESHNESS_RATE_PER_DAY = 1;
/** Hub score from which a page's re-checks count as freshness traffic. */
const FRESHNESS_HUB_SCORE = 0.5;

/**
 * When a fetched page is due again, and how urgent it is then. The change rate is estimated from
 * the page's history (prior: sitemap changefreq, or the job's interval); the page is due when it has
 * changed with `targetProbability`, sooner for hubs, within [min, max]. Its priority is the change
 * probability at that time × its value, so among due pages the likely changed, valuable ones go first.
 */
export function recrawlPlan(record: LinkRecord, policy: RecrawlPolicy): RecrawlPlan {
  const defaultRate = (-Math.log1p(-policy.targetProbability) * 86_400_000) / policy.initialIntervalMs;
  const changeRate = estimateChangeRate(record.changeHistory, ratePrior(record.sitemapChangefreq, defaultRate));
  const hub = hubScore(record.linkYield);
  const raw = timeToProbability(changeRate, policy.targetProbability) / (1 + (policy.hubBoost - 1) * hub);
  const intervalMs = Math.round(Math.min(policy.maxIntervalMs, Math.max(policy.minIntervalMs, raw)));
  const value = pageValue(record);
  const priority = changeProbability(changeRate, intervalMs) * value;
  const trafficClass: TrafficClass =
    changeRate >= FRESHNESS_RATE_PER_DAY || hub >= FRESHNESS_HUB_SCORE ? 'freshness' : 'update';
  return { changeRate, intervalMs, value, priority, level: levelOf(priority), trafficClass };
}

/** Value, priority and level of a URL not fetched yet: its priority is its value (whatever it holds is new). */
export function discoveryPlan(record: LinkRecord): Pick<LinkRecord, 'value' | 'priority' | 'level' | 'trafficClass'> {
  const value = pageValue(record);
  return { value, priority: value, level: levelOf(value), trafficClass: 'discovery' };
}
