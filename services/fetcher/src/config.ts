import { loadConfig, setting, type ConfigOf, type LoadOptions } from '@crawler/core';
import { z } from 'zod';
import { allowListProblem } from './address-allow-list.js';

const list = () => z.array(z.string());
const ms = (min = 0) => z.number().int().min(min);

/** An honest User-Agent: a product token that robots.txt groups can name, and a way to reach the operator. */
const userAgent = z
  .string()
  .regex(
    /^[A-Za-z_-]+/,
    'must start with a product token (letters, "-", "_"), e.g. "mybot/1.0 (+https://example.org/bot)"',
  )
  .regex(
    /https?:\/\/\S+/,
    'must contain a contact URL (http:// or https://), e.g. "mybot/1.0 (+https://example.org/bot)"',
  );

/** Every fetcher setting, with its environment variable and default. */
export const fetcherSettings = {
  userAgent: setting(
    'FETCHER_USER_AGENT',
    userAgent.default('crawler/0.1 (+https://crawler.invalid/about; crawler@crawler.invalid)'),
    'User-Agent sent with every request: an honest product token and a contact URL (required).',
  ),
  robotsAgent: setting(
    'FETCHER_ROBOTS_AGENT',
    z
      .string()
      .regex(/^[A-Za-z_-]+$/, 'letters, "-" and "_" only')
      .optional(),
    'Product token matched against robots.txt user-agent lines. Default: the User-Agent\'s own product token ("mybot" for "mybot/1.0 (+https://...)").',
  ),
  obeyRobots: setting(
    'FETCHER_OBEY_ROBOTS',
    z.boolean().default(true),
    'Obey robots.txt (turn off only for sites you own).',
  ),
  robotsTtlMs: setting(
    'FETCHER_ROBOTS_TTL_MS',
    z
      .number()
      .int()
      .min(1000)
      .default(24 * 3600 * 1000),
    'How long a fetched robots.txt is trusted.',
  ),
  robotsErrorTtlMs: setting(
    'FETCHER_ROBOTS_ERROR_TTL_MS',
    z
      .number()
      .int()
      .min(100)
      .default(10 * 60 * 1000),
    'How long a site whose robots.txt failed (5xx, 429, unreachable) stays off limits before it is tried again.',
  ),
  robotsStaleMs: setting(
    'FETCHER_ROBOTS_STALE_MS',
    ms().default(30 * 24 * 3600 * 1000),
    'While robots.txt fails, the last good copy is used if it is younger than this (RFC 9309 2.4); 0: never.',
  ),
  queueMode: setting(
    'FETCHER_QUEUE_MODE',
    z.enum(['host', 'domain', 'ip']).default('host'),
    'What one politeness queue is: a host, a registrable domain (public suffix list) or a resolved IP address.',
  ),
  siteMode: setting(
    'FETCHER_SITE_MODE',
    z.enum(['host', 'domain']).default('host'),
    'What one site is for its budget, footprint and block state: a host (with its port) or a registrable domain.',
  ),
  siteRequestsPer10Min: setting(
    'FETCHER_SITE_REQUESTS_PER_10MIN',
    z.number().int().min(0).default(100),
    'Most requests to one site in any 10 minutes, across all fetchers (pages and attachments); 0: no ceiling. See docs/SITE-OPERATORS.md.',
  ),
  siteRequestsPerDay: setting(
    'FETCHER_SITE_REQUESTS_PER_DAY',
    z.number().int().min(0).default(5000),
    'Most requests to one site in any 24 hours, across all fetchers; 0: no ceiling.',
  ),
  siteMeanIntervalMs: setting(
    'FETCHER_SITE_MEAN_INTERVAL_MS',
    ms().default(2000),
    "Least time between two page requests to one site, across all fetchers (so also the least mean); robots.txt's Crawl-delay and Request-rate raise it. 0: none.",
  ),
  egressNetwork: setting(
    'FETCHER_EGRESS_NETWORK',
    z.string().min(1).optional(),
    'The network sites see our requests come from, for the footprint (e.g. 203.0.113.0/24 behind NAT or a proxy). Default: the /24 (IPv6: /48) of the local address that routes to each site.',
  ),
  blockBackoffMs: setting(
    'FETCHER_BLOCK_BACKOFF_MS',
    ms(1).default(15 * 60_000),
    'How long a site that blocks us (challenge or CAPTCHA pages, a burst of 403/429, collapsed content) is left alone before one probe request; it doubles with each block in a row.',
  ),
  maxBlockBackoffMs: setting(
    'FETCHER_MAX_BLOCK_BACKOFF_MS',
    ms(1).default(24 * 3_600_000),
    'Cap on how long a blocked site is left alone between probes.',
  ),
  concurrency: setting(
    'FETCHER_CONCURRENCY',
    z.number().int().min(1).max(10_000).default(50),
    'Requests in flight across all hosts.',
  ),
  perHostConcurrency: setting(
    'FETCHER_PER_HOST_CONCURRENCY',
    z.number().int().min(1).max(100).default(1),
    'Requests in flight to one politeness queue.',
  ),
  minDelayMs: setting(
    'FETCHER_MIN_DELAY_MS',
    z.number().int().min(0).default(1000),
    'Minimum time between two requests to one politeness queue.',
  ),
  maxCrawlDelayMs: setting(
    'FETCHER_MAX_CRAWL_DELAY_MS',
    z.number().int().min(0).default(30_000),
    'Cap on a robots.txt Crawl-delay.',
  ),
  jobFile: setting(
    'CRAWL_JOB_FILE',
    z.string().optional(),
    'Crawl job file: the fetcher reads which extra content types (feeds, sitemaps, plain text) the job wants.',
  ),
  delayFactor: setting(
    'FETCHER_DELAY_FACTOR',
    z.number().min(0).max(100).default(1),
    'Adaptive slow-down: the next request to a queue waits at least this many times the last answer took. 0: off.',
  ),
  backoffBaseMs: setting(
    'FETCHER_BACKOFF_BASE_MS',
    ms(1).default(1000),
    'Hold after a 429/503 without Retry-After; it doubles with each one in a row.',
  ),
  maxBackoffMs: setting('FETCHER_MAX_BACKOFF_MS', ms(1).default(300_000), 'Cap on adaptive delays and back-off holds.'),
  maxRetryAfterMs: setting(
    'FETCHER_MAX_RETRY_AFTER_MS',
    z.number().int().min(0).default(120_000),
    'Cap on how long a Retry-After closes a queue.',
  ),
  queuedMax: setting(
    'FETCHER_QUEUED_MAX',
    z.number().int().min(1).default(2000),
    'URLs taken from the frontier topic at once (waiting for their queue, or in flight); past it the consumer is held back.',
  ),
  queueWaitingMax: setting(
    'FETCHER_QUEUE_WAITING_MAX',
    z.number().int().min(1).default(100),
    'URLs waiting for one politeness queue; more are handed back to the scheduler (throttled, FETCHER_QUEUE_FULL) with the expected wait.',
  ),
  maxQueueWaitMs: setting(
    'FETCHER_MAX_QUEUE_WAIT_MS',
    ms(1000).default(300_000),
    'A URL that would wait longer than this for its queue is handed back instead of held; keep it well under SCHEDULER_LEASE_MS.',
  ),
  connectTimeoutMs: setting(
    'FETCHER_CONNECT_TIMEOUT_MS',
    z.number().int().min(100).default(10_000),
    'TCP/TLS connect timeout.',
  ),
  headersTimeoutMs: setting(
    'FETCHER_HEADERS_TIMEOUT_MS',
    z.number().int().min(100).default(15_000),
    'Time to wait for response headers.',
  ),
  bodyTimeoutMs: setting(
    'FETCHER_BODY_TIMEOUT_MS',
    z.number().int().min(100).default(15_000),
    'Longest silence while a body is read.',
  ),
  totalTimeoutMs: setting(
    'FETCHER_TOTAL_TIMEOUT_MS',
    z.number().int().min(100).default(60_000),
    'Hard limit for one URL, all redirect hops and a slow-drip body included.',
  ),
  maxBodyBytes: setting(
    'FETCHER_MAX_BODY_BYTES',
    z
      .number()
      .int()
      .min(1024)
      .max(6 * 1024 * 1024)
      .default(4 * 1024 * 1024),
    // 4 MiB: real documentation indexes run past 2 MiB (Python's contents.html is 2.5 MB).
    'Body size cap (after decompression); longer HTML and text bodies are kept cut at the cap and flagged (WARC-Truncated: length).',
  ),
  maxRedirects: setting(
    'FETCHER_MAX_REDIRECTS',
    z.number().int().min(0).max(20).default(0),
    'Redirect hops followed inline within one host. 0 (default) hands every redirect to the scheduler, which fetches each target once; inline following saves a round trip but can fetch a target twice when it is also linked.',
  ),
  contentTypes: setting(
    'FETCHER_CONTENT_TYPES',
    z
      .array(z.string().regex(/^\s*[\w.+-]+\/([\w.+-]+|\*)\s*$/, 'each a media type, type/subtype or type/*'))
      .default(['text/html', 'application/xhtml+xml']),
    'Media types whose bodies are downloaded; "type/*" admits a family. E.g. add application/pdf, image/*, application/rss+xml, application/atom+xml, application/xml (sitemaps).',
  ),
  allowAddresses: setting(
    'FETCHER_ALLOW_ADDRESSES',
    list()
      .superRefine((entries, context) => {
        const problem = allowListProblem(entries);
        if (problem) context.addIssue({ code: 'custom', message: problem });
      })
      .default([]),
    'Private/loopback addresses admitted: IPs, CIDR ranges (at most /8, or /7 for IPv6) or host names (resolved once at start; their addresses are admitted), each optionally with :PORT to admit one origin only (e.g. 127.0.0.1:8080). Empty: only public addresses.',
  ),
  dnsCacheMs: setting(
    'FETCHER_DNS_CACHE_MS',
    ms().default(60_000),
    'How long resolved addresses are reused; 0 asks DNS for every connection.',
  ),
  proxyUrl: setting(
    'FETCHER_PROXY_URL',
    z.url({ protocol: /^https?$/ }).optional(),
    'Plain HTTP(S) forward proxy for all requests, e.g. http://proxy.internal:3128 (addresses are still checked before each request).',
  ),
  cookieJobs: setting(
    'FETCHER_COOKIE_JOBS',
    list().default([]),
    'Crawl job ids that keep cookies (per site, in memory); "*" for all. Empty: no cookies are stored or sent.',
  ),
  cookieSitesMax: setting(
    'FETCHER_COOKIE_SITES_MAX',
    z.number().int().min(1).default(10_000),
    'Sites whose cookies are kept at once; the least recently used are forgotten.',
  ),
  bodyCompression: setting(
    'FETCHER_BODY_COMPRESSION',
    z.enum(['identity', 'gzip']).default('gzip'),
    'How bodies travel on the bus.',
  ),
  render: setting(
    'FETCHER_RENDER',
    z.boolean().default(false),
    'Render pages that need it in headless Chromium (site rules, script shells); a crawl job turns it on for itself with "rendering": {"enabled": true}. Off: no browser is started (docs/RENDERING.md).',
  ),
  renderRulesFile: setting(
    'FETCHER_RENDER_RULES_FILE',
    z.string().optional(),
    'JSON file of per-site render rules (URL regex; always, learn or never; scrolls; a "load more" selector); the job file\'s rendering.rules come first.',
  ),
  renderDetectShells: setting(
    'FETCHER_RENDER_DETECT_SHELLS',
    z.boolean().default(true),
    'Render pages whose plain HTML looks like a script shell (little text, scripts, an empty app root or a noscript plea) without a rule.',
  ),
  renderChromium: setting(
    'FETCHER_RENDER_CHROMIUM',
    z.string().min(1).default('/usr/bin/chromium'),
    'Chromium executable (Debian package "chromium"); no browser is ever downloaded.',
  ),
  renderPages: setting(
    'FETCHER_RENDER_PAGES',
    z.number().int().min(1).max(64).default(2),
    'Browser pages rendering at once: the pool size.',
  ),
  renderWaitingMax: setting(
    'FETCHER_RENDER_WAITING_MAX',
    z.number().int().min(0).default(20),
    'Pages waiting for a browser page; past it a page is kept unrendered (renderError RENDER_QUEUE_FULL).',
  ),
  renderTimeoutMs: setting(
    'FETCHER_RENDER_TIMEOUT_MS',
    ms(1000).default(20_000),
    'Time limit of one page in the browser (loading, sub-requests, scrolls, clicks); the DOM as it stands then is kept.',
  ),
  renderIdleMs: setting(
    'FETCHER_RENDER_IDLE_MS',
    ms(50).default(500),
    'A rendering page has settled when none of its requests was in flight for this long.',
  ),
  renderMemoryMb: setting(
    'FETCHER_RENDER_MEMORY_MB',
    z.number().int().min(64).default(1024),
    'Browser memory cap (proportional set size of all its processes, Linux); above it the browser is restarted once its pages are done.',
  ),
  renderBlockTypes: setting(
    'FETCHER_RENDER_BLOCK_TYPES',
    list().default(['image', 'font', 'media']),
    'Resource types a rendering page may not load (Chromium names: image, font, media, stylesheet, script, xhr, fetch, ...).',
  ),
  renderMaxRequests: setting(
    'FETCHER_RENDER_MAX_REQUESTS',
    z.number().int().min(1).default(100),
    'Sub-requests one rendering page may make (cached ones included); more are refused.',
  ),
  renderCacheBytes: setting(
    'FETCHER_RENDER_CACHE_BYTES',
    z
      .number()
      .int()
      .min(0)
      .default(32 * 1024 * 1024),
    "Scripts and stylesheets kept for other renders (10 minutes at most), so a site's bundle is fetched once, not per page.",
  ),
  renderLearnSamples: setting(
    'FETCHER_RENDER_LEARN_SAMPLES',
    z.number().int().min(0).default(5),
    'Renders per site before deciding whether rendering pays there (changed the links or main text of at least one); 0: no learning.',
  ),
  renderDecisionTtlMs: setting(
    'FETCHER_RENDER_DECISION_TTL_MS',
    ms(60_000).default(7 * 24 * 3600 * 1000),
    "How long a site's learned render decision holds before it is learned again.",
  ),
};

export type FetcherConfig = ConfigOf<typeof fetcherSettings>;

/** Site budgets off, for crawling sites we run ourselves (the test web, benchmarks): no ceiling, no mean interval. */
export const OWN_SITE_BUDGET = { siteRequestsPer10Min: 0, siteRequestsPerDay: 0, siteMeanIntervalMs: 0 } as const;

/** The product token robots.txt groups are matched against: the configured one, else the User-Agent's. */
export function robotsTokenOf(config: Pick<FetcherConfig, 'robotsAgent' | 'userAgent'>): string {
  return (config.robotsAgent ?? config.userAgent.match(/^[A-Za-z_-]+/)![0]).toLowerCase();
}

export function loadFetcherConfig(options?: LoadOptions): FetcherConfig {
  return loadConfig('fetcher', fetcherSettings, options);
}
