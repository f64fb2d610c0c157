import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError } from './errors.js';

/**
 * A crawl job: its seeds and the rules every service applies to its URLs. Services load the same
 * job file (CRAWL_JOB_FILE) so scope is decided identically everywhere.
 */
export const crawlJobSchema = z.object({
  id: z.string().min(1).default('default'),
  seeds: z.array(z.url()).default([]),
  scope: z
    .object({
      /** seeds: hosts of the seeds; host: the linking page's host; any: no host rule. */
      mode: z.enum(['seeds', 'host', 'any']).default('seeds'),
      /** Extra hosts allowed in `seeds` mode. */
      hosts: z.array(z.string()).default([]),
      allow: z.array(z.string()).default([]),
      deny: z.array(z.string()).default([]),
    })
    .prefault({}),
  maxDepth: z.number().int().min(0).default(20),
  maxUrlLength: z.number().int().min(16).default(2048),
  /** Stop scheduling new URLs once this many were handed out (0 = no cap). */
  maxPages: z.number().int().min(0).default(0),
  /** Re-crawl interval for pages that were fetched. */
  recrawlIntervalMs: z.number().int().min(1000).default(24 * 3600 * 1000),
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
    throw new ConfigError(`crawl job file ${path} (CRAWL_JOB_FILE) cannot be read: ${(cause as Error).message}`, { cause });
  }
  return parseCrawlJob(raw, path);
}
