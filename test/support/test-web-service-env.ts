/**
 * Settings every test that runs the services as processes gives them to crawl the test web: its
 * loopback address admitted, no politeness delay or site budget, short deadlines and retries, so a crawl of a few
 * hundred URLs settles in seconds.
 */
export const TEST_WEB_SERVICE_ENV: Record<string, string> = {
  FETCHER_ALLOW_ADDRESSES: '127.0.0.1',
  FETCHER_MIN_DELAY_MS: '0',
  FETCHER_SITE_REQUESTS_PER_10MIN: '0',
  FETCHER_SITE_REQUESTS_PER_DAY: '0',
  FETCHER_SITE_MEAN_INTERVAL_MS: '0',
  FETCHER_PER_HOST_CONCURRENCY: '4',
  FETCHER_TOTAL_TIMEOUT_MS: '2500',
  FETCHER_HEADERS_TIMEOUT_MS: '2500',
  SCHEDULER_RETRY_BASE_MS: '300',
  SCHEDULER_RETRY_MAX_MS: '2000',
  SCHEDULER_TICK_MS: '100',
};
