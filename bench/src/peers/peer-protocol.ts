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
  /**
   * Where the child writes the URLs it kept (stored, handed on as items), one per line and a URL
   * kept twice listed twice; not written by this crawler, whose stores the scorer reads itself.
   */
  storedFile: string;
  /** The User-Agent to send when the harness counts the crawl's requests by it (the real-web bed); else the runner's own. */
  userAgent?: string;
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
  /**
   * When the crawl ran in a program the runner started and waited for (wget): that program's CPU
   * seconds and peak resident memory, which the harness takes instead of the idle runner's own.
   */
  child?: { cpuSeconds: number; peakRssMb: number };
}
