import { ConfigError, LEVELS, loadConfig, setting, type ConfigOf, type LoadOptions } from '@crawler/core';
import { z } from 'zod';

const DAY_MS = 86_400_000;

/** Every scheduler setting, with its environment variable and default. */
export const schedulerSettings = {
  jobFile: setting(
    'CRAWL_JOB_FILE',
    z.string().optional(),
    'Crawl job file (seeds, scope, limits, schedules, politeness overrides, sitemaps) shared by all services.',
  ),
  tickMs: setting('SCHEDULER_TICK_MS', z.number().int().min(10).default(250), 'How often due URLs are looked for.'),
  batchSize: setting('SCHEDULER_BATCH_SIZE', z.number().int().min(1).default(1000), 'Most URLs handed out per round.'),
  perHostPerRound: setting(
    'SCHEDULER_PER_HOST_PER_ROUND',
    z.number().int().min(1).default(20),
    'Most URLs of one host handed out per round, so one big site cannot fill a round.',
  ),
  maxInFlight: setting(
    'SCHEDULER_MAX_IN_FLIGHT',
    z.number().int().min(1).default(5000),
    'URLs handed out and not yet answered, in all.',
  ),
  maxInFlightPerHost: setting(
    'SCHEDULER_MAX_IN_FLIGHT_PER_HOST',
    z.number().int().min(1).default(50),
    'URLs handed out and not yet answered, per host.',
  ),
  leaseMs: setting(
    'SCHEDULER_LEASE_MS',
    z
      .number()
      .int()
      .min(1000)
      .default(10 * 60 * 1000),
    'How long a handed-out URL may stay unanswered before it is due again.',
  ),
  maxLeaseExpiries: setting(
    'SCHEDULER_MAX_LEASE_EXPIRIES',
    z.number().int().min(1).default(3),
    'Leases a URL may lose (no answer at all) before it is marked failed, so a poison URL cannot loop forever.',
  ),
  maxRedirectHops: setting(
    'SCHEDULER_MAX_REDIRECT_HOPS',
    z.number().int().min(0).max(20).default(5),
    'Redirects followed from a linked URL; a longer chain ends with too_many_redirects.',
  ),
  maxAttempts: setting(
    'SCHEDULER_MAX_ATTEMPTS',
    z.number().int().min(1).default(3),
    'Attempts for a URL whose failures may pass (5xx, 429, timeouts) before it waits for its next re-crawl.',
  ),
  retryBaseMs: setting(
    'SCHEDULER_RETRY_BASE_MS',
    z.number().int().min(10).default(60_000),
    'First retry delay of a failed URL; it doubles with each failure (with jitter).',
  ),
  retryMaxMs: setting(
    'SCHEDULER_RETRY_MAX_MS',
    z
      .number()
      .int()
      .min(10)
      .default(6 * 3600 * 1000),
    'Longest retry delay.',
  ),
  recrawlMinMs: setting(
    'SCHEDULER_RECRAWL_MIN_MS',
    z.number().int().min(1000).default(3_600_000),
    'Shortest re-crawl interval of a page, however often it changes.',
  ),
  recrawlMaxMs: setting(
    'SCHEDULER_RECRAWL_MAX_MS',
    z
      .number()
      .int()
      .min(1000)
      .default(30 * DAY_MS),
    'Longest re-crawl interval of a page, however rarely it changes.',
  ),
  recrawlProbability: setting(
    'SCHEDULER_RECRAWL_PROBABILITY',
    z.number().gt(0).lt(1).default(0.5),
    'A fetched page is due again when its estimated probability of having changed reaches this (docs/SCHEDULING.md); lower re-crawls more often.',
  ),
  hubBoost: setting(
    'SCHEDULER_HUB_BOOST',
    z.number().min(1).max(100).default(3),
    'A page whose fetches keep yielding new URLs (a hub) is re-crawled up to this many times as often as its change rate asks.',
  ),
  clockOffsetMs: setting(
    'SCHEDULER_CLOCK_OFFSET_MS',
    z.number().int().min(0).default(0),
    "Runs the scheduler's clock this far ahead of the system clock: re-crawls come due, and later visits are planned, as if that much time had passed. For tests and simulations, or to re-check pages before they are due; 0 in normal operation.",
  ),
  trafficShares: setting(
    'SCHEDULER_TRAFFIC_SHARES',
    z
      .partialRecord(z.enum(['discovery', 'freshness', 'update']), z.number().min(0))
      .default({ discovery: 0.5, freshness: 0.3, update: 0.2 }),
    'Share of each round for each traffic class while several have due URLs, as JSON: discovery (new URLs), freshness (re-checks of hubs and fast-changing pages), update (other re-checks).',
  ),
  levelWeights: setting(
    'SCHEDULER_LEVEL_WEIGHTS',
    z.array(z.coerce.number().positive()).length(LEVELS).default([8, 4, 2, 1]),
    "Weights of priority levels 0 (highest) to 3, comma separated: each level with due URLs gets at least its weight's share of a round, so low levels never starve.",
  ),
  hostOrder: setting(
    'SCHEDULER_HOST_ORDER',
    z.enum(['breadth-first', 'priority']).default('breadth-first'),
    "Order of one host's URLs: breadth-first (by link depth; levels only break ties) or priority (by level, breadth-first within a level).",
  ),
  countInlinks: setting(
    'SCHEDULER_COUNT_INLINKS',
    z.boolean().default(true),
    'Count links to known URLs and keep their anchor texts (one batched link base write per links message): signals of the weight function.',
  ),
  adminToken: setting(
    'SCHEDULER_ADMIN_TOKEN',
    z.string().min(16).optional(),
    'Token of the admin HTTP API (Authorization: Bearer ...); without it the API is not started. At least 16 characters.',
    { secret: true },
  ),
  adminPort: setting(
    'SCHEDULER_ADMIN_PORT',
    z.number().int().min(0).max(65535).default(8090),
    'Port of the admin HTTP API (0 picks a free port).',
  ),
  adminHost: setting(
    'SCHEDULER_ADMIN_HOST',
    z.string().min(1).default('127.0.0.1'),
    'Address the admin HTTP API listens on.',
  ),
};

export type SchedulerConfig = ConfigOf<typeof schedulerSettings>;

export function loadSchedulerConfig(options?: LoadOptions): SchedulerConfig {
  const config = loadConfig('scheduler', schedulerSettings, options);
  if (config.recrawlMinMs > config.recrawlMaxMs) {
    throw new ConfigError(
      `scheduler: SCHEDULER_RECRAWL_MIN_MS (${config.recrawlMinMs}) is above SCHEDULER_RECRAWL_MAX_MS (${config.recrawlMaxMs}); make the minimum the smaller one.`,
    );
  }
  return config;
}
