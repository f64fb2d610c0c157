export type LoggedMethod = 'GET' | 'HEAD';

/** How many GET and HEAD requests each absolute URL received (canonical form, as in the ground truth). */
export interface RequestLog {
  /** Requests for the URL, both methods unless one is named. */
  count(url: string, method?: LoggedMethod): number;
  total(): number;
  /** Every URL requested at least once since the last reset. */
  urls(): string[];
  reset(): void;
}

export interface RequestRecorder extends RequestLog {
  record(url: string, method: LoggedMethod): void;
}

export function createRequestLog(): RequestRecorder {
  const counts = new Map<string, { GET: number; HEAD: number }>();
  let total = 0;
  return {
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
      total = 0;
    },
  };
}
