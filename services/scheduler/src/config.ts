import { loadConfig, setting, type ConfigOf, type LoadOptions } from '@crawler/core';
import { z } from 'zod';

/** Every scheduler setting, with its environment variable and default. */
export const schedulerSettings = {
  jobFile: setting('CRAWL_JOB_FILE', z.string().optional(), 'Crawl job file (seeds, scope, limits) shared by all services.'),
  tickMs: setting('SCHEDULER_TICK_MS', z.number().int().min(10).default(250), 'How often due URLs are looked for.'),
  batchSize: setting('SCHEDULER_BATCH_SIZE', z.number().int().min(1).default(1000), 'Most URLs handed out per round.'),
  perHostPerRound: setting('SCHEDULER_PER_HOST_PER_ROUND', z.number().int().min(1).default(20), 'Most URLs of one host handed out per round, so one big site cannot fill a round.'),
  maxInFlight: setting('SCHEDULER_MAX_IN_FLIGHT', z.number().int().min(1).default(5000), 'URLs handed out and not yet answered, in all.'),
  maxInFlightPerHost: setting('SCHEDULER_MAX_IN_FLIGHT_PER_HOST', z.number().int().min(1).default(50), 'URLs handed out and not yet answered, per host.'),
  leaseMs: setting('SCHEDULER_LEASE_MS', z.number().int().min(1000).default(10 * 60 * 1000), 'How long a handed-out URL may stay unanswered before it is due again.'),
  maxLeaseExpiries: setting('SCHEDULER_MAX_LEASE_EXPIRIES', z.number().int().min(1).default(3), 'Leases a URL may lose (no answer at all) before it is marked failed, so a poison URL cannot loop forever.'),
  maxRedirectHops: setting('SCHEDULER_MAX_REDIRECT_HOPS', z.number().int().min(0).max(20).default(5), 'Redirects followed from a linked URL; a longer chain ends with too_many_redirects.'),
  maxAttempts: setting('SCHEDULER_MAX_ATTEMPTS', z.number().int().min(1).default(3), 'Attempts for a URL whose failures may pass (5xx, 429, timeouts) before it waits for its next re-crawl.'),
  retryBaseMs: setting('SCHEDULER_RETRY_BASE_MS', z.number().int().min(10).default(60_000), 'First retry delay of a failed URL; it doubles with each failure (with jitter).'),
  retryMaxMs: setting('SCHEDULER_RETRY_MAX_MS', z.number().int().min(10).default(6 * 3600 * 1000), 'Longest retry delay.'),
};

export type SchedulerConfig = ConfigOf<typeof schedulerSettings>;

export function loadSchedulerConfig(options?: LoadOptions): SchedulerConfig {
  return loadConfig('scheduler', schedulerSettings, options);
}
