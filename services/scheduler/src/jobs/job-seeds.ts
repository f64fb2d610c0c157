import {
  canonicalize,
  createLinkRecord,
  fetchNow,
  jobCanonicalizeOptions,
  withNextFetch,
  type CrawlJob,
  type LinkRecord,
} from '@crawler/core';
import { discoveryPlan } from '../policy/recrawl-plan.js';

/** A queued record for a URL an operator gave (seed, sitemap, monitored URL), due now; null if it is not an http(s) URL. */
export function givenUrlRecord(
  job: CrawlJob,
  url: string,
  source: 'seed' | 'sitemap',
  at: number,
  random: () => number,
): LinkRecord | null {
  const canonical = canonicalize(url, undefined, jobCanonicalizeOptions(job));
  if (!canonical.ok) return null;
  const record = withNextFetch(
    createLinkRecord(
      canonical.url,
      { jobId: job.id, source, depth: 0, discoveredAt: at, rank: random() },
      canonical.parsed,
    ),
    fetchNow,
    at,
  );
  return { ...record, ...discoveryPlan(record) };
}

/** The job's seeds, its sitemaps and its monitored URLs, as records to insert if absent. */
export function jobStartRecords(job: CrawlJob, at: number, random: () => number): LinkRecord[] {
  const given: [string, 'seed' | 'sitemap'][] = [
    ...job.seeds.map((url): [string, 'seed'] => [url, 'seed']),
    ...job.schedules.flatMap((schedule) => schedule.urls.map((url): [string, 'seed'] => [url, 'seed'])),
    ...job.sitemaps.map((url): [string, 'sitemap'] => [url, 'sitemap']),
  ];
  const byId = new Map<string, LinkRecord>();
  for (const [url, source] of given) {
    const record = givenUrlRecord(job, url, source, at, random);
    if (record && !byId.has(record.id)) byId.set(record.id, record);
  }
  return [...byId.values()];
}

/**
 * A seed the address policy refused in an earlier run is due again now: the allow-list is
 * configuration, and the operator who was told how to admit the seed reruns with the same
 * output folder. If the policy still refuses it, the fetcher blocks it again.
 */
export function readmitRefusedSeed(record: LinkRecord, at: number): LinkRecord | null {
  if (record.status !== 'blocked' || record.lastOutcome !== 'blocked_address') return null;
  return withNextFetch({ ...record, status: 'queued', consecutiveFailures: 0, leaseUntil: 0 }, fetchNow, at);
}
