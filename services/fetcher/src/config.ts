import { loadConfig, setting, type ConfigOf, type LoadOptions } from '@crawler/core';
import { z } from 'zod';

const list = () => z.array(z.string());

/** Every fetcher setting, with its environment variable and default. */
export const fetcherSettings = {
  userAgent: setting('FETCHER_USER_AGENT', z.string().min(3).default('crawler/0.1 (+https://crawler.invalid/about; crawler@crawler.invalid)'), 'User-Agent sent with every request: an honest name and a contact URL.'),
  robotsAgent: setting('FETCHER_ROBOTS_AGENT', z.string().min(1).default('crawler'), 'Product token matched against robots.txt user-agent lines.'),
  obeyRobots: setting('FETCHER_OBEY_ROBOTS', z.boolean().default(true), 'Obey robots.txt (turn off only for sites you own).'),
  robotsTtlMs: setting('FETCHER_ROBOTS_TTL_MS', z.number().int().min(1000).default(24 * 3600 * 1000), 'How long a fetched robots.txt is trusted.'),
  robotsErrorTtlMs: setting('FETCHER_ROBOTS_ERROR_TTL_MS', z.number().int().min(100).default(10 * 60 * 1000), 'How long a site whose robots.txt failed (5xx, unreachable) stays off limits before it is tried again.'),
  concurrency: setting('FETCHER_CONCURRENCY', z.number().int().min(1).max(10_000).default(50), 'Requests in flight across all hosts.'),
  perHostConcurrency: setting('FETCHER_PER_HOST_CONCURRENCY', z.number().int().min(1).max(100).default(1), 'Requests in flight to one host.'),
  minDelayMs: setting('FETCHER_MIN_DELAY_MS', z.number().int().min(0).default(1000), 'Minimum time between two requests to one host.'),
  maxCrawlDelayMs: setting('FETCHER_MAX_CRAWL_DELAY_MS', z.number().int().min(0).default(30_000), 'Cap on a robots.txt Crawl-delay.'),
  maxRetryAfterMs: setting('FETCHER_MAX_RETRY_AFTER_MS', z.number().int().min(0).default(120_000), 'Cap on how long a Retry-After closes a host.'),
  queuedMax: setting('FETCHER_QUEUED_MAX', z.number().int().min(1).default(2000), 'URLs taken from the frontier topic at once (waiting for their host, or in flight); past it the consumer is held back.'),
  connectTimeoutMs: setting('FETCHER_CONNECT_TIMEOUT_MS', z.number().int().min(100).default(10_000), 'TCP/TLS connect timeout.'),
  headersTimeoutMs: setting('FETCHER_HEADERS_TIMEOUT_MS', z.number().int().min(100).default(15_000), 'Time to wait for response headers.'),
  bodyTimeoutMs: setting('FETCHER_BODY_TIMEOUT_MS', z.number().int().min(100).default(15_000), 'Longest silence while a body is read.'),
  totalTimeoutMs: setting('FETCHER_TOTAL_TIMEOUT_MS', z.number().int().min(100).default(60_000), 'Hard limit for one URL, all redirect hops and a slow-drip body included.'),
  maxBodyBytes: setting('FETCHER_MAX_BODY_BYTES', z.number().int().min(1024).max(6 * 1024 * 1024).default(2 * 1024 * 1024), 'Body size cap (after decompression); longer bodies are truncated and flagged.'),
  maxRedirects: setting('FETCHER_MAX_REDIRECTS', z.number().int().min(0).max(20).default(0), 'Redirect hops followed inline within one host. 0 (default) hands every redirect to the scheduler, which fetches each target once; inline following saves a round trip but can fetch a target twice when it is also linked.'),
  contentTypes: setting('FETCHER_CONTENT_TYPES', list().default(['text/html', 'application/xhtml+xml']), 'Media types whose bodies are downloaded.'),
  allowAddresses: setting('FETCHER_ALLOW_ADDRESSES', list().default([]), 'IPs or CIDRs admitted although private/loopback (e.g. 127.0.0.1 for a local test site). Empty: only public addresses.'),
  bodyCompression: setting('FETCHER_BODY_COMPRESSION', z.enum(['identity', 'gzip']).default('gzip'), 'How bodies travel on the bus.'),
};

export type FetcherConfig = ConfigOf<typeof fetcherSettings>;

export function loadFetcherConfig(options?: LoadOptions): FetcherConfig {
  return loadConfig('fetcher', fetcherSettings, options);
}
