export type LoggedMethod = 'GET' | 'HEAD';

/** One request as the server's access log has it. */
export interface LoggedRequest {
  url: string;
  method: LoggedMethod;
  /** Arrival of the request's headers, epoch milliseconds (fractional). */
  at: number;
  /** The client's address, as the socket saw it. */
  remote: string;
}

/** How many GET and HEAD requests each absolute URL received (canonical form, as in the ground truth). */
export interface RequestLog {
  /** Requests for the URL, both methods unless one is named. */
  count(url: string, method?: LoggedMethod): number;
  total(): number;
  /** Every URL requested at least once since the last reset. */
  urls(): string[];
  /** Requests answered 304 Not Modified (a conditional GET that matched), for the URL or in all. */
  notModified(url?: string): number;
  /** The latest requests in arrival order (at most MAX_LOGGED of them), for timing checks. */
  entries(): readonly LoggedRequest[];
  reset(): void;
}

export interface RequestRecorder extends RequestLog {
  record(url: string, method: LoggedMethod, remote?: string): void;
  recordNotModified(url: string): void;
}

/** Requests kept with their times: enough for any test crawl, bounded for benchmarks. */
export const MAX_LOGGED = 200_000;

export function createRequestLog(
  now: () => number = () => performance.timeOrigin + performance.now(),
): RequestRecorder {
  const counts = new Map<string, { GET: number; HEAD: number }>();
  const notModified = new Map<string, number>();
  let logged: LoggedRequest[] = [];
  let total = 0;
  let totalNotModified = 0;
  return {
    recordNotModified(url) {
      notModified.set(url, (notModified.get(url) ?? 0) + 1);
      totalNotModified++;
    },
    notModified: (url) => (url === undefined ? totalNotModified : (notModified.get(url) ?? 0)),
    record(url, method, remote = '') {
      let entry = counts.get(url);
      if (!entry) {
        entry = { GET: 0, HEAD: 0 };
        counts.set(url, entry);
      }
      entry[method]++;
      total++;
      logged.push({ url, method, at: now(), remote });
      // Trimmed in steps, so keeping the log bounded costs O(1) per request.
      if (logged.length >= 2 * MAX_LOGGED) logged = logged.slice(-MAX_LOGGED);
    },
    count(url, method) {
      const entry = counts.get(url);
      if (!entry) return 0;
      return method ? entry[method] : entry.GET + entry.HEAD;
    },
    total: () => total,
    urls: () => [...counts.keys()],
    entries: () => logged.slice(-MAX_LOGGED),
    reset() {
      counts.clear();
      notModified.clear();
      logged = [];
      total = 0;
      totalNotModified = 0;
    },
  };
}
