import { beforeAll, describe, expect, it } from 'vitest';
import {
  policies,
  recordWebHistory,
  schedulerOrder,
  simulate,
  type SimulationResult,
  type WebHistory,
} from './recrawl-simulation.js';

const NUTCH = 'Nutch AdaptiveFetchSchedule';
const STORMCRAWLER = 'StormCrawler AdaptiveScheduler';
const OURS = 'Poisson estimate (ours), no sitemap hints';
const OURS_HINTED = 'Poisson estimate (ours), with sitemap hints';

describe('re-crawl policies on 60 simulated rounds (days) of the test web', () => {
  let history: WebHistory;
  const run = (budget?: number, order?: Parameters<typeof simulate>[4]): Record<string, SimulationResult> =>
    Object.fromEntries(
      Object.entries(policies()).map(([name, factory]) => [name, simulate(history, name, factory, budget, order)]),
    );

  beforeAll(async () => {
    history = await recordWebHistory(60);
  }, 60_000);

  it('records every page with its changes and sitemap hints', () => {
    expect(history.pages.length).toBeGreaterThan(200);
    expect(history.pages.some((page) => page.changedIn.length > 20)).toBe(true);
    expect(history.pages.some((page) => page.changedIn.length === 0)).toBe(true);
    expect(history.pages.filter((page) => page.sitemapChangefreq !== null).length).toBeGreaterThan(100);
  });

  it('each page when its policy asks: ours finds more changes per fetch than multiply-or-divide, with fewer fetches and fresher copies than Nutch', () => {
    const results = run();
    expect(results[OURS]!.changesPerFetch).toBeGreaterThan(results[NUTCH]!.changesPerFetch);
    expect(results[OURS]!.changesPerFetch).toBeGreaterThan(results[STORMCRAWLER]!.changesPerFetch);
    expect(results[OURS]!.fetches).toBeLessThan(results[NUTCH]!.fetches);
    expect(results[OURS]!.changesFound).toBeGreaterThan(results[NUTCH]!.changesFound);
    expect(results[OURS]!.freshness).toBeGreaterThanOrEqual(results[NUTCH]!.freshness);
    expect(results[OURS_HINTED]!.changesPerFetch).toBeGreaterThan(results[OURS]!.changesPerFetch);
  });

  it('with 20 re-fetches a day for 271 pages, earliest due first: ours finds more changes with the same fetches', () => {
    const results = run(20);
    for (const name of [NUTCH, STORMCRAWLER]) {
      expect(results[OURS]!.changesFound).toBeGreaterThan(results[name]!.changesFound);
      expect(results[OURS_HINTED]!.changesFound).toBeGreaterThan(results[name]!.changesFound * 1.25);
    }
  });

  it('with the scheduler picking the due pages itself, sitemap hints still find far more changes than multiply-or-divide', () => {
    const baseline = run(20)[NUTCH]!;
    const selection = schedulerOrder({
      classShares: { discovery: 0.5, freshness: 0.3, update: 0.2 },
      levelWeights: [8, 4, 2, 1],
      hostOrder: 'breadth-first',
    });
    const ours = simulate(history, OURS_HINTED, policies()[OURS_HINTED]!, 20, selection);
    expect(ours.changesPerFetch).toBeGreaterThan(baseline.changesPerFetch * 1.25);
  });
});
