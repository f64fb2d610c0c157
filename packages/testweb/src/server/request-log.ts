export type LoggedMethod = 'GET' | 'HEAD';

/** How many GET and HEAD requests each absolute URL received (canonical form, as in the ground truth). */
export interface RequestLog {
  /** Requests for the URL, both methods unless one is named. */
  count(url: string, method?: LoggedMethod): number;
  total(): number;
  /** Every URL requested at least once since the last reset. */
  urls(): string[];
  /** Requests answered 304 Not Modified (a conditional GET that matched), for the URL or in all. */
  notModified(url?: string): number;
  reset(): void;
}

export interface RequestRecorder extends RequestLog {
  record(url: string, method: LoggedMethod): void;
  recordNotModified(url: string): void;
}

export function createRequestLog(): RequestRecorder {
  const counts = new Map<string, { GET: number; HEAD: number }>();
  const notModified = new Map<string, number>();
  let total = 0;
  let totalNotModified = 0;
  return {
    recordNotModified(url) {
      notModified.set(url, (notModified.get(url) ?? 0) + 1);
      totalNotModified++;
    },
    notModified: (url) => (url === undefined ? totalNotModified : (notModified.get(url) ?? 0)),
    record(url, method) {
      let entry = counts.get(url);
      if (!entry) {
        entry = { GET: 0, HEAD: 0 };
        counts.set(url, entry);
      }
      entry[method]++;
      total++;
    },
    count(url, method) {
      const entry = counts.get(url);
      if (!entry) return 0;
      return method ? entry[method] : entry.GET + entry.HEAD;
    },
    total: () => total,
    urls: () => [...counts.keys()],
    reset() {
      counts.clear();
      notModified.clear();
      total = 0;
      totalNotModified = 0;
    },
  };
}
