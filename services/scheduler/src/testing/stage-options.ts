import { parseCrawlJob, type LinkBase } from '@crawler/core';
import { JobRegistry } from '../jobs/job-registry.js';
import { createSchedulerCounters, type SchedulerStageOptions } from '../scheduler-stages.js';

/** Stage options for the scheduler's tests: the default job, short fixed intervals, a fixed random draw. */
export function testStageOptions(
  linkbase: LinkBase,
  overrides: Partial<SchedulerStageOptions> = {},
): SchedulerStageOptions {
  return {
    linkbase,
    jobs: new JobRegistry(parseCrawlJob({})),
    policy: {
      minIntervalMs: 1000,
      maxIntervalMs: 10_000,
      targetProbability: 0.5,
      hubBoost: 3,
      maxAttempts: 3,
      retryBaseMs: 1,
      retryMaxMs: 1,
    },
    counters: createSchedulerCounters(),
    leaseMs: 1000,
    maxRedirectHops: 5,
    countInlinks: true,
    random: () => 0.25,
    ...overrides,
  };
}
