import { parseCrawlJob } from '@crawler/core';
import { describe, expect, it } from 'vitest';
import { SiteBudgets } from './site-budgets.js';

const defaults = { requestsPer10Min: 100, requestsPerDay: 5000, meanIntervalMs: 2000 };
const job = parseCrawlJob({
  id: 'shop-crawl',
  politeness: [
    { hosts: ['*.shop.example'], requestsPer10Min: 600, meanIntervalMs: 500 },
    { hosts: ['api.shop.example'], requestsPer10Min: 50, requestsPerDay: 0 },
  ],
});
const budgets = new SiteBudgets(defaults, 'host', job, 30_000);
const noRobots = { crawlDelaySeconds: null, requestIntervalSeconds: null };

describe('SiteBudgets', () => {
  it('counts a site by host, or by registrable domain', () => {
    expect(budgets.siteOf(new URL('http://www.shop.example:8080/a'))).toBe('www.shop.example:8080');
    expect(new SiteBudgets(defaults, 'domain', job, 30_000).siteOf(new URL('http://a.b.shop.co.uk/'))).toBe(
      'shop.co.uk',
    );
  });

  it("replaces the defaults with the job's overrides for its URLs, the strictest of those that match", () => {
    const www = new URL('http://www.shop.example/');
    expect(budgets.budgetFor(www, 'shop-crawl', noRobots)).toEqual({
      requestsPer10Min: 600,
      requestsPerDay: 5000,
      meanIntervalMs: 500,
    });
    // Two overrides: the lower ceiling wins; a 0 there means "no daily ceiling", the loosest.
    expect(budgets.budgetFor(new URL('http://api.shop.example/'), 'shop-crawl', noRobots)).toEqual({
      requestsPer10Min: 50,
      requestsPerDay: 0,
      meanIntervalMs: 500,
    });
    expect(budgets.budgetFor(www, 'another-job', noRobots)).toEqual(defaults);
    expect(budgets.budgetFor(new URL('http://elsewhere.example/'), 'shop-crawl', noRobots)).toEqual(defaults);
  });

  it("raises the mean interval to robots.txt's Crawl-delay or Request-rate, which an override cannot loosen, up to the cap", () => {
    const www = new URL('http://www.shop.example/');
    expect(
      budgets.budgetFor(www, 'shop-crawl', { crawlDelaySeconds: 3, requestIntervalSeconds: null }).meanIntervalMs,
    ).toBe(3000);
    expect(
      budgets.budgetFor(www, 'shop-crawl', { crawlDelaySeconds: 1, requestIntervalSeconds: 10 }).meanIntervalMs,
    ).toBe(10_000);
    expect(
      budgets.budgetFor(www, 'shop-crawl', { crawlDelaySeconds: 3600, requestIntervalSeconds: null }).meanIntervalMs,
    ).toBe(30_000);
  });

  it('turns ceilings into pacing limits, 0 meaning none', () => {
    expect(SiteBudgets.limitsOf(defaults)).toEqual([
      { windowMs: 600_000, max: 100 },
      { windowMs: 86_400_000, max: 5000 },
    ]);
    expect(SiteBudgets.limitsOf({ requestsPer10Min: 0, requestsPerDay: 0, meanIntervalMs: 0 })).toEqual([]);
  });
});
