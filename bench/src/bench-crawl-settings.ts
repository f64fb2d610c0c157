import { OWN_SITE_BUDGET } from '@crawler/fetcher';

/**
 * Our crawler's settings for the bench web, shared by every way we run it. Politeness is off
 * (no delay, no adaptive slow-down, one host may take the whole concurrency) because the peers
 * run without it too (no site budget either: the bench web is ours); robots.txt is still fetched and obeyed. The scheduler hands out work in
 * rounds large enough that the fetcher never starves.
 */
export function benchCrawlOverrides(concurrency: number, options: { embedded: boolean; userAgent?: string }) {
  const inFlight = concurrency * 8;
  return {
    fetcher: {
      ...(options.userAgent ? { userAgent: options.userAgent } : {}),
      allowAddresses: ['127.0.0.1'],
      concurrency,
      perHostConcurrency: concurrency,
      minDelayMs: 0,
      ...OWN_SITE_BUDGET,
      delayFactor: 0,
      queuedMax: inFlight,
      // Every URL handed out may wait for its host: none is handed back as "queue full".
      queueWaitingMax: inFlight,
      // The in-process bus keeps bodies in memory, so compressing them for it buys nothing; Kafka keeps the default.
      ...(options.embedded ? { bodyCompression: 'identity' } : {}),
    },
    scheduler: {
      tickMs: 20,
      batchSize: 4000,
      perHostPerRound: 2000,
      maxInFlight: inFlight,
      maxInFlightPerHost: inFlight,
    },
  };
}

/** The same settings as environment variables, for the services run as separate processes. */
export function benchCrawlEnv(concurrency: number): Record<string, string> {
  const { fetcher, scheduler } = benchCrawlOverrides(concurrency, { embedded: false });
  return {
    FETCHER_ALLOW_ADDRESSES: fetcher.allowAddresses.join(','),
    FETCHER_CONCURRENCY: String(fetcher.concurrency),
    FETCHER_PER_HOST_CONCURRENCY: String(fetcher.perHostConcurrency),
    FETCHER_MIN_DELAY_MS: String(fetcher.minDelayMs),
    FETCHER_SITE_REQUESTS_PER_10MIN: String(fetcher.siteRequestsPer10Min),
    FETCHER_SITE_REQUESTS_PER_DAY: String(fetcher.siteRequestsPerDay),
    FETCHER_SITE_MEAN_INTERVAL_MS: String(fetcher.siteMeanIntervalMs),
    FETCHER_DELAY_FACTOR: String(fetcher.delayFactor),
    FETCHER_QUEUED_MAX: String(fetcher.queuedMax),
    FETCHER_QUEUE_WAITING_MAX: String(fetcher.queueWaitingMax),
    SCHEDULER_TICK_MS: String(scheduler.tickMs),
    SCHEDULER_BATCH_SIZE: String(scheduler.batchSize),
    SCHEDULER_PER_HOST_PER_ROUND: String(scheduler.perHostPerRound),
    SCHEDULER_MAX_IN_FLIGHT: String(scheduler.maxInFlight),
    SCHEDULER_MAX_IN_FLIGHT_PER_HOST: String(scheduler.maxInFlightPerHost),
  };
}
