import { makeLinkRecord } from '@crawler/core/testing';
import { describe, expect, it } from 'vitest';
import { DAY_MS } from './change-rate.js';
import { discoveryPlan, recrawlPlan } from './recrawl-plan.js';

const policy = {
  initialIntervalMs: DAY_MS,
  minIntervalMs: 3_600_000,
  maxIntervalMs: 30 * DAY_MS,
  targetProbability: 0.5,
  hubBoost: 3,
};
const fetched = (fields: Parameters<typeof makeLinkRecord>[1]) =>
  makeLinkRecord('http://a.test/page', { status: 'fetched', fetchCount: 5, depth: 1, ...fields });
const days = (n: number, changed: boolean) => ({ ms: n * DAY_MS, changed });

describe('recrawlPlan', () => {
  it('re-crawls a page nothing is known about after the job interval', () => {
    expect(recrawlPlan(fetched({ fetchCount: 1 }), policy).intervalMs).toBe(DAY_MS);
  });

  it('re-crawls pages that changed sooner than pages that did not, within the bounds', () => {
    const busy = recrawlPlan(
      fetched({ changeHistory: [days(1, true), days(1, true), days(1, true), days(1, true)] }),
      policy,
    );
    const quiet = recrawlPlan(
      fetched({ changeHistory: [days(1, false), days(2, false), days(4, false), days(8, false)] }),
      policy,
    );
    expect(busy.intervalMs).toBeLessThan(DAY_MS / 2);
    expect(busy.intervalMs).toBeGreaterThanOrEqual(policy.minIntervalMs);
    expect(quiet.intervalMs).toBeGreaterThan(5 * DAY_MS);
    expect(
      recrawlPlan(fetched({ changeHistory: Array.from({ length: 24 }, () => days(30, false)) }), policy).intervalMs,
    ).toBe(policy.maxIntervalMs);
    expect(busy.priority).toBeGreaterThan(quiet.priority * 0.9);
  });

  it('follows a sitemap changefreq before the page has history', () => {
    expect(recrawlPlan(fetched({ fetchCount: 1, sitemapChangefreq: 'hourly' }), policy).intervalMs).toBe(
      policy.minIntervalMs,
    );
    expect(recrawlPlan(fetched({ fetchCount: 1, sitemapChangefreq: 'monthly' }), policy).intervalMs).toBeGreaterThan(
      10 * DAY_MS,
    );
  });

  it('revisits hubs that keep yielding new links more often, as freshness traffic', () => {
    const history = [days(2, true), days(2, false), days(2, true)];
    const leaf = recrawlPlan(fetched({ changeHistory: history, linkYield: 0 }), policy);
    const hub = recrawlPlan(fetched({ changeHistory: history, linkYield: 20 }), policy);
    expect(hub.intervalMs).toBeCloseTo(leaf.intervalMs / 3, -3);
    expect(hub.trafficClass).toBe('freshness');
    expect(leaf.trafficClass).toBe('update');
    expect(hub.priority).toBeGreaterThan(0);
  });

  it('sets priority to change probability at the due time × value', () => {
    const plan = recrawlPlan(fetched({ changeHistory: [days(1, true), days(1, false)] }), policy);
    expect(plan.priority).toBeCloseTo(0.5 * plan.value, 5);
  });

  it('gives a never-fetched URL its value as priority, as discovery traffic', () => {
    const plan = discoveryPlan(makeLinkRecord('http://a.test/', { source: 'seed' }));
    expect(plan).toMatchObject({ trafficClass: 'discovery', level: 0 });
    expect(plan.priority).toBe(plan.value);
  });
});
