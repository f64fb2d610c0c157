import type { CrawlJob } from './crawl-job.js';
import { registrableDomain } from './url/registrable-domain.js';

export type DropReason =
  | 'invalid'
  | 'scheme'
  | 'too-long'
  | 'out-of-scope'
  | 'denied'
  | 'not-allowed'
  | 'entry-rule'
  | 'repeated-segments'
  | 'query-params'
  | 'host-budget'
  | 'depth'
  | 'nofollow'
  | 'duplicate'
  | 'links-capped';

export interface Scope {
  /** Why a canonical link is refused, or null if it is in scope. Applies to links of any origin. */
  check(link: URL, page: URL): DropReason | null;
  /** The job's entry-page rules: from a page matching a rule, only the rule's link patterns pass. Page links only. */
  entryRule(link: URL, page: URL): DropReason | null;
  depthAllowed(depth: number): boolean;
}

/**
 * The job's scope rules, compiled once, checked in this order: host rule (seeds, host, domain or
 * any), deny patterns, allow patterns, URL length, repeated path segments, number of query parameters.
 */
export function createScope(job: CrawlJob): Scope {
  const { scope } = job;
  const seedHosts = new Set([...job.seeds.map((seed) => new URL(seed).host), ...scope.hosts]);
  const seedDomains = new Set([
    ...job.seeds.map((seed) => registrableDomain(new URL(seed))),
    ...scope.hosts.map((host) => registrableDomain(host.replace(/:\d+$/, ''))),
  ]);
  const deny = scope.deny.map((pattern) => new RegExp(pattern));
  const allow = scope.allow.map((pattern) => new RegExp(pattern));
  const entryRules = scope.entryRules.map((rule) => ({
    page: new RegExp(rule.page),
    links: rule.links.map((pattern) => new RegExp(pattern)),
  }));

  const hostRule = (link: URL, page: URL): boolean => {
    switch (scope.mode) {
      // A job without seeds (a service started without CRAWL_JOB_FILE) has no seed hosts to keep to.
      case 'seeds':
        return seedHosts.size === 0 || seedHosts.has(link.host);
      case 'host':
        return link.host === page.host;
      case 'domain':
        return seedDomains.size === 0
          ? registrableDomain(link) === registrableDomain(page)
          : seedDomains.has(registrableDomain(link));
      case 'any':
        return true;
    }
  };

  return {
    check(link, page) {
      if (!hostRule(link, page)) return 'out-of-scope';
      const href = link.href;
      if (deny.some((pattern) => pattern.test(href))) return 'denied';
      if (allow.length > 0 && !allow.some((pattern) => pattern.test(href))) return 'not-allowed';
      if (href.length > job.maxUrlLength) return 'too-long';
      if (
        segmentCount(link.pathname) > scope.maxRepeatedSegments &&
        maxSegmentRepeats(link.pathname) > scope.maxRepeatedSegments
      )
        return 'repeated-segments';
      if (countQueryParams(link.search) > scope.maxQueryParams) return 'query-params';
      return null;
    },
    entryRule(link, page) {
      if (entryRules.length === 0) return null;
      const pageHref = page.href;
      const matching = entryRules.filter((rule) => rule.page.test(pageHref));
      if (matching.length === 0) return null;
      const href = link.href;
      return matching.some((rule) => rule.links.some((pattern) => pattern.test(href))) ? null : 'entry-rule';
    },
    depthAllowed: (depth) => depth <= job.maxDepth,
  };
}

/** How often the most repeated non-empty path segment occurs: /a/b/a/b/a has 3 (calendar and relative-link traps). */
export function maxSegmentRepeats(pathname: string): number {
  const counts = new Map<string, number>();
  let max = 0;
  for (const segment of pathname.split('/')) {
    if (!segment) continue;
    const count = (counts.get(segment) ?? 0) + 1;
    counts.set(segment, count);
    if (count > max) max = count;
  }
  return max;
}

/** Slashes in a path: a path with no more segments than the limit cannot repeat one past it. */
function segmentCount(pathname: string): number {
  let count = 0;
  for (let i = 0; i < pathname.length; i++) if (pathname.charCodeAt(i) === 47 /* / */) count++;
  return count;
}

function countQueryParams(search: string): number {
  if (search.length <= 1) return 0;
  let count = 1;
  for (let i = 1; i < search.length; i++) if (search.charCodeAt(i) === 38 /* & */) count++;
  return count;
}
