import { hostMatches, hostQueueKey, registrableDomain, type CrawlJob, type PaceLimit } from '@crawler/core';
import type { RobotsPolicy } from '../robots/robots-txt.js';

/** What one site is: a host (with its port), or a registrable domain. */
export type SiteMode = 'host' | 'domain';

/** Ceilings on what one site receives from the whole crawler; 0 is no ceiling. */
export interface SiteBudget {
  requestsPer10Min: number;
  requestsPerDay: number;
  /** Least time between two page requests to the site. */
  meanIntervalMs: number;
}

const TEN_MINUTES = 600_000;
const DAY = 86_400_000;

/**
 * Each site's budget: the configured defaults, replaced by the crawl job's overrides for hosts
 * they name (the strictest of those that match), then raised to robots.txt's Crawl-delay and
 * Request-rate, which a job cannot loosen (capped as the Crawl-delay is, by
 * FETCHER_MAX_CRAWL_DELAY_MS). Overrides apply to the job file's own job.
 */
export class SiteBudgets {
  constructor(
    private readonly defaults: SiteBudget,
    readonly mode: SiteMode,
    private readonly job: CrawlJob,
    private readonly maxRobotsIntervalMs: number,
  ) {}

  siteOf(url: URL): string {
    return this.mode === 'domain' ? registrableDomain(url) : hostQueueKey(url);
  }

  budgetFor(
    url: URL,
    jobId: string,
    robots: Pick<RobotsPolicy, 'crawlDelaySeconds' | 'requestIntervalSeconds'> | null,
  ) {
    const budget = jobId === this.job.id ? this.overridden(url.host) : { ...this.defaults };
    const floorSeconds = Math.max(robots?.crawlDelaySeconds ?? 0, robots?.requestIntervalSeconds ?? 0);
    const floorMs = Math.min(floorSeconds * 1000, this.maxRobotsIntervalMs);
    return { ...budget, meanIntervalMs: Math.max(budget.meanIntervalMs, floorMs) };
  }

  /** The budget's ceilings as pacing limits. */
  static limitsOf(budget: SiteBudget): PaceLimit[] {
    const limits: PaceLimit[] = [];
    if (budget.requestsPer10Min > 0) limits.push({ windowMs: TEN_MINUTES, max: budget.requestsPer10Min });
    if (budget.requestsPerDay > 0) limits.push({ windowMs: DAY, max: budget.requestsPerDay });
    return limits;
  }

  private overridden(host: string): SiteBudget {
    const matching = this.job.politeness.filter((override) =>
      override.hosts.some((pattern) => hostMatches(pattern, host)),
    );
    const given = (pick: (override: CrawlJob['politeness'][number]) => number | undefined) =>
      matching.map(pick).filter((value): value is number => value !== undefined);
    // 0 is "no ceiling", the loosest value: among the overrides that set one, the strictest wins.
    const ceiling = (values: number[], fallback: number) => {
      if (values.length === 0) return fallback;
      const bounded = values.filter((value) => value > 0);
      return bounded.length > 0 ? Math.min(...bounded) : 0;
    };
    const intervals = given((override) => override.meanIntervalMs);
    return {
      requestsPer10Min: ceiling(
        given((override) => override.requestsPer10Min),
        this.defaults.requestsPer10Min,
      ),
      requestsPerDay: ceiling(
        given((override) => override.requestsPerDay),
        this.defaults.requestsPerDay,
      ),
      meanIntervalMs: intervals.length > 0 ? Math.max(...intervals) : this.defaults.meanIntervalMs,
    };
  }
}
