import { registrableDomain } from '@crawler/core';
import { CookieJar } from 'tough-cookie';

/**
 * Cookies for the crawl jobs that opted in, one RFC 6265 jar per (job, site) where a site is a
 * registrable domain: a site's cookies never reach another site, and a job never sees another
 * job's. The least recently used jars go first past maxSites, so memory stays bounded on a crawl
 * of millions of sites (a dropped jar means a fresh session, as for a new visitor).
 */
export class CookieJars {
  private readonly jars = new Map<string, CookieJar>();

  constructor(
    private readonly jobs: ReadonlySet<string>,
    private readonly maxSites = 10_000,
  ) {}

  /** Jobs opt in by id in FETCHER_COOKIE_JOBS; "*" opts every job in. */
  enabledFor(jobId: string): boolean {
    return this.jobs.has('*') || this.jobs.has(jobId);
  }

  /** The Cookie header for a request, or null. */
  async header(jobId: string, url: URL): Promise<string | null> {
    if (!this.enabledFor(jobId)) return null;
    const jar = this.jars.get(this.key(jobId, url));
    if (!jar) return null;
    const header = await jar.getCookieString(url.href);
    return header || null;
  }

  /** Keeps the cookies of a response's Set-Cookie headers (joined by newlines); bad ones are ignored. */
  async remember(jobId: string, url: URL, setCookie: string | undefined): Promise<void> {
    if (!setCookie || !this.enabledFor(jobId)) return;
    const jar = this.jarFor(this.key(jobId, url));
    for (const line of setCookie.split('\n')) await jar.setCookie(line, url.href, { ignoreError: true });
  }

  get size(): number {
    return this.jars.size;
  }

  private key(jobId: string, url: URL): string {
    return `${jobId}\u0000${registrableDomain(url)}`;
  }

  private jarFor(key: string): CookieJar {
    let jar = this.jars.get(key);
    if (jar) this.jars.delete(key);
    else jar = new CookieJar();
    this.jars.set(key, jar);
    while (this.jars.size > this.maxSites) this.jars.delete(this.jars.keys().next().value as string);
    return jar;
  }
}
