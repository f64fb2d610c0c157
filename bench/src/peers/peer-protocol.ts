/**
 * How the harness and a crawler under test (a child process, in any language) talk, one JSON line
 * each way at a time: the child prints `ready` once set up, crawls when it reads `go`, prints
 * `done` with its figures, and exits when it reads `exit`. It stays alive between `done` and
 * `exit` so the harness can read its CPU time and peak memory from /proc.
 */
export interface PeerConfig {
  seeds: string[];
  /** Every page of the truth: the raw baseline fetches exactly these. */
  pagesFile: string;
  concurrency: number;
  /** The same page cap for every peer. */
  maxPages: number;
  timeLimitMs: number;
  /** Where the child writes the URLs it fetched successfully, one per line. */
  okFile: string;
  /** Runner-specific settings (e.g. stack names), passed through. */
  extra?: Record<string, string>;
}

export interface PeerDone {
  event: 'done';
  /** Successful page fetches the crawler counted. */
  pages: number;
  /** From `go` until the crawl returned (includes the crawler's own completion detection). */
  seconds: number;
  /** From `go` until the last successful page: pages/s is counted over this. */
  lastPageSeconds: number;
  /** Anything the runner wants on record (stop reason, versions). */
  notes?: Record<string, unknown>;
}
