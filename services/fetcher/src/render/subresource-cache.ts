export interface CachedResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Scripts and stylesheets change with a site's deploys; minutes are short enough to see one, long enough to serve a crawl. */
const TTL_MS = 10 * 60 * 1000;

/**
 * Scripts and stylesheets of rendered pages, shared by all renders of this process, bounded in
 * bytes, least recently used out first. A single-page app's bundle is then fetched once per site,
 * not once per page: a request not sent is one the site does not have to answer.
 */
export class SubresourceCache {
  private readonly entries = new Map<string, CachedResponse & { expiresAt: number }>();
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(url: string): CachedResponse | null {
    const entry = this.entries.get(url);
    if (!entry) return null;
    this.entries.delete(url);
    if (entry.expiresAt <= this.now()) {
      this.bytes -= entry.body.length;
      return null;
    }
    this.entries.set(url, entry);
    return entry;
  }

  /** Keeps a 200 answer unless it says not to (no-store, private) or would take more than a tenth of the cache. */
  put(url: string, response: CachedResponse): void {
    if (response.status !== 200 || /no-store|private/i.test(response.headers['cache-control'] ?? '')) return;
    if (response.body.length > this.maxBytes / 10) return;
    const previous = this.entries.get(url);
    if (previous) this.bytes -= previous.body.length;
    this.entries.delete(url);
    this.entries.set(url, { ...response, expiresAt: this.now() + TTL_MS });
    this.bytes += response.body.length;
    for (const [key, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(key);
      this.bytes -= entry.body.length;
    }
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }
}
