/**
 * The settings `crawler demo` crawls the test web with (its `testWebOverrides`), as the environment
 * of a `crawler run` process: no delays or site budgets, short timeouts for the slow and endless pages, quick
 * retries. The scheduler's round interval stays its default, as a user's crawl has it.
 */
export const TEST_WEB_CRAWL_ENV = {
  FETCHER_ALLOW_ADDRESSES: '127.0.0.1',
  FETCHER_MIN_DELAY_MS: '0',
  FETCHER_SITE_REQUESTS_PER_10MIN: '0',
  FETCHER_SITE_REQUESTS_PER_DAY: '0',
  FETCHER_SITE_MEAN_INTERVAL_MS: '0',
  FETCHER_DELAY_FACTOR: '0',
  FETCHER_PER_HOST_CONCURRENCY: '4',
  FETCHER_CONCURRENCY: '32',
  FETCHER_TOTAL_TIMEOUT_MS: '2500',
  FETCHER_HEADERS_TIMEOUT_MS: '2500',
  FETCHER_BODY_TIMEOUT_MS: '2000',
  SCHEDULER_RETRY_BASE_MS: '300',
  SCHEDULER_RETRY_MAX_MS: '2000',
};
