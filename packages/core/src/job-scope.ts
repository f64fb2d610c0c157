import type { CrawlJob } from './crawl-job.js';

export type DropReason = 'invalid' | 'scheme' | 'too-long' | 'out-of-scope' | 'denied' | 'not-allowed' | 'depth' | 'nofollow' | 'duplicate';

export interface Scope {
  /** Why a canonical link is refused, or null if it is in scope. */
  check(link: URL, page: URL): DropReason | null;
  depthAllowed(depth: number): boolean;
}

/** The job's scope rules, compiled once: host rule, deny then allow patterns, max depth. */
export function createScope(job: CrawlJob): Scope {
  const seedHosts = new Set([...job.seeds.map((seed) => new URL(seed).host), ...job.scope.hosts]);
  const deny = job.scope.deny.map((pattern) => new RegExp(pattern));
  const allow = job.scope.allow.map((pattern) => new RegExp(pattern));
  return {
    check(link, page) {
      // A job without seeds (a service started without CRAWL_JOB_FILE) has no seed hosts to keep to.
      if (job.scope.mode === 'seeds' && seedHosts.size > 0 && !seedHosts.has(link.host)) return 'out-of-scope';
      if (job.scope.mode === 'host' && link.host !== page.host) return 'out-of-scope';
      const href = link.href;
      if (deny.some((pattern) => pattern.test(href))) return 'denied';
      if (allow.length > 0 && !allow.some((pattern) => pattern.test(href))) return 'not-allowed';
      return null;
    },
    depthAllowed: (depth) => depth <= job.maxDepth,
  };
}
