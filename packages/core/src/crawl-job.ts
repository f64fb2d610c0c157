import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { regexSource } from './config/regex-source.js';
import { ConfigError } from './errors.js';
import type { CanonicalizeOptions } from './url/canonicalize.js';

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A duration as milliseconds, or a string such as "90s", "15m", "1h", "7d". */
const duration = z.union([
  z.number().int().min(1000),
  z
    .string()
    .regex(/^\s*\d+(?:\.\d+)?\s*(?:ms|s|m|h|d)\s*$/, 'a duration such as 90s, 15m, 1h or 7d')
    .transform((text) => {
      const [, amount, unit] = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*$/.exec(text)!;
      return Math.round(Number(amount) * DURATION_UNITS[unit!]!);
    })
    .pipe(z.number().min(1000, 'at least one second')),
]);

/**
 * A crawl job: its seeds and the rules every service applies to its URLs. Services load the same
 * job file (CRAWL_JOB_FILE) so scope is decided identically everywhere.
 */
export const crawlJobSchema = z.strictObject({
  id: z.string().min(1).default('default'),
  /** Read and checked by the fetcher alone (services/fetcher/src/render/render-job.ts). */
  rendering: z.unknown().optional(),
  seeds: z.array(z.url()).default([]),
  scope: z
    .strictObject({
      /** seeds: hosts of the seeds; host: the linking page's host; domain: registrable domains of the seeds; any: no host rule. */
      mode: z.enum(['seeds', 'host', 'domain', 'any']).default('seeds'),
      /** Extra hosts allowed in `seeds` mode (their domains in `domain` mode). */
      hosts: z.array(z.string()).default([]),
      allow: z.array(regexSource).default([]),
      deny: z.array(regexSource).default([]),
      /** From a page matching `page`, only new links matching one of `links` are kept (e.g. channel pages yield articles). */
      entryRules: z.array(z.strictObject({ page: regexSource, links: z.array(regexSource).min(1) })).default([]),
      /** Trap guard: a URL whose path repeats one segment more often than this is dropped. */
      maxRepeatedSegments: z.number().int().min(1).default(3),
      maxQueryParams: z.number().int().min(0).default(16),
      /** Distinct URLs one link extractor passes on per host (0 = no cap); see docs/EXTRACTION.md. */
      maxUrlsPerHost: z.number().int().min(0).default(0),
    })
    .prefault({}),
  maxDepth: z.number().int().min(0).default(20),
  maxUrlLength: z.number().int().min(16).default(2048),
  /** Stop scheduling new URLs once this many were handed out (0 = no cap). */
  maxPages: z.number().int().min(0).default(0),
  /** Re-crawl interval of a fetched page before anything is known about how often it changes (then it adapts). */
  recrawlIntervalMs: z
    .number()
    .int()
    .min(1000)
    .default(24 * 3600 * 1000),
  /** Monitoring: these URLs (default: the seeds) are fetched at least once in every period, e.g. every "1h". */
  schedules: z.array(z.strictObject({ every: duration, urls: z.array(z.url()).default([]) })).default([]),
  /**
   * Politeness overrides for the scheduler's hand-outs to hosts matching `hosts` ("news.example.org",
   * or "*.example.org" for the domain and its subdomains): URLs in flight, URLs per round, and time
   * between two URLs of the host. The strictest of every matching override applies.
   */
  politeness: z
    .array(
      z.strictObject({
        hosts: z.array(z.string().min(1)).min(1),
        maxInFlight: z.number().int().min(1).optional(),
        perRound: z.number().int().min(1).optional(),
        minDelayMs: z.number().int().min(0).optional(),
      }),
    )
    .default([]),
  /** XML sitemaps (or sitemap indexes) to read besides those robots.txt announces: their URLs feed the link base. */
  sitemaps: z.array(z.url()).default([]),
  /** Canonicalization of discovered links (docs/URLS.md). */
  urls: z
    .strictObject({
      removeTrackingParams: z.boolean().default(true),
      removeSessionIds: z.boolean().default(true),
      sortQuery: z.boolean().default(false),
      extraTrackingParams: z.array(z.string().transform((name) => name.toLowerCase())).default([]),
      extraSessionParams: z.array(z.string().transform((name) => name.toLowerCase())).default([]),
    })
    .prefault({}),
  /** What link extraction does beyond links and main text (docs/EXTRACTION.md). */
  extraction: z
    .strictObject({
      /** A rule file mapping URL patterns to CSS-selected fields; relative paths are resolved against the job file. */
      rulesFile: z.string().optional(),
      /** The same rules inline. */
      rules: z.array(z.unknown()).default([]),
      /** Fetch and parse RSS/Atom feeds, XML sitemaps and plain text as well as HTML. Sitemaps are
       * on by default: robots.txt announces them, and they feed the link base. */
      feeds: z.boolean().default(false),
      sitemaps: z.boolean().default(true),
      plainText: z.boolean().default(false),
      /** Follow http(s) URLs written as plain text in a page's visible text. */
      textLinks: z.boolean().default(true),
      /** Fetch a frameset's frames and stitch their text into the page's text. */
      spliceFrames: z.boolean().default(false),
    })
    .prefault({}),
});

export type CrawlJob = z.output<typeof crawlJobSchema>;

export function parseCrawlJob(value: unknown, source = 'crawl job'): CrawlJob {
  const parsed = crawlJobSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`${source}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return Object.freeze(parsed.data);
}

export function loadCrawlJob(path: string | undefined): CrawlJob {
  if (!path) return parseCrawlJob({});
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (cause) {
    throw new ConfigError(`crawl job file ${path} (CRAWL_JOB_FILE) cannot be read: ${(cause as Error).message}`, {
      cause,
    });
  }
  const job = parseCrawlJob(raw, path);
  const rulesFile = job.extraction.rulesFile;
  return rulesFile
    ? Object.freeze({ ...job, extraction: { ...job.extraction, rulesFile: resolve(dirname(path), rulesFile) } })
    : job;
}

const FEED_TYPES = ['application/rss+xml', 'application/atom+xml', 'application/xml', 'text/xml'];
const SITEMAP_TYPES = ['application/xml', 'text/xml', 'application/gzip', 'application/x-gzip'];

/**
 * Media types the job wants fetched besides HTML: the fetcher adds them to FETCHER_CONTENT_TYPES
 * so feeds, sitemaps and plain text reach link extraction.
 */
export function jobContentTypes(job: CrawlJob): string[] {
  const types = new Set<string>();
  if (job.extraction.feeds) for (const type of FEED_TYPES) types.add(type);
  if (job.extraction.sitemaps) for (const type of SITEMAP_TYPES) types.add(type);
  if (job.extraction.plainText) types.add('text/plain');
  return [...types];
}

/** The job's canonicalization options, for every service that canonicalizes discovered links. */
export function jobCanonicalizeOptions(job: CrawlJob): CanonicalizeOptions {
  return { ...job.urls, maxLength: job.maxUrlLength };
}
