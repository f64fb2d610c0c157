import { hostMatches, type CrawlJob } from '@crawler/core';

export interface HostPoliteness {
  maxInFlight?: number;
  perRound?: number;
  minDelayMs?: number;
}

/** The strictest of every override, in any job, whose host patterns match the host. */
export function hostPoliteness(jobs: readonly CrawlJob[], host: string): HostPoliteness {
  const out: HostPoliteness = {};
  const tighter = (current: number | undefined, next: number | undefined, pick: (a: number, b: number) => number) =>
    next === undefined ? current : current === undefined ? next : pick(current, next);
  for (const job of jobs) {
    for (const override of job.politeness) {
      if (!override.hosts.some((pattern) => hostMatches(pattern, host))) continue;
      out.maxInFlight = tighter(out.maxInFlight, override.maxInFlight, Math.min);
      out.perRound = tighter(out.perRound, override.perRound, Math.min);
      out.minDelayMs = tighter(out.minDelayMs, override.minDelayMs, Math.max);
    }
  }
  return out;
}
