/**
 * Distinct URLs passed on per host by this process, for the job's `scope.maxUrlsPerHost`. Each
 * host keeps a set of 32-bit URL hashes up to the budget; the least recently seen hosts are
 * forgotten past `maxHosts`, so memory is bounded by budget × hosts. A hash collision lets one
 * URL through as if it were known; a forgotten host starts counting again. The budget is per
 * extractor process: the link base is the place for an exact, crawl-wide count.
 */
export class HostBudget {
  private readonly hosts = new Map<string, Set<number>>();

  constructor(
    private readonly budget: number,
    private readonly maxHosts = 10_000,
  ) {}

  /** True if the URL is already counted or fits in its host's budget (and counts it). */
  admit(host: string, url: string): boolean {
    if (this.budget <= 0) return true;
    let seen = this.hosts.get(host);
    if (seen) {
      this.hosts.delete(host);
    } else {
      seen = new Set();
      if (this.hosts.size >= this.maxHosts) this.hosts.delete(this.hosts.keys().next().value!);
    }
    this.hosts.set(host, seen);
    const hash = fnv1a(url);
    if (seen.has(hash)) return true;
    if (seen.size >= this.budget) return false;
    seen.add(hash);
    return true;
  }
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
