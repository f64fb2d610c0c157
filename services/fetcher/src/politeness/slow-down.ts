/** What a queue must remember between requests: when the next may start, and how many answers in a row said "busy". */
export interface QueueTiming {
  nextAt: number;
  busyStreak: number;
}

/** How one request went, as far as the site's load is concerned. */
export interface Feedback {
  /**
   * answered: the site answered (any status but 429/503); busy: 429 or 503; unreached: no request
   * reached the site (blocked, DNS failure), which says nothing about its load.
   */
  signal: 'answered' | 'busy' | 'unreached';
  /** Time from the request to the end of its body. */
  durationMs: number;
  retryAfterMs?: number | null;
}

export interface SlowDownOptions {
  /** The next request waits at least this many times the last response's duration. */
  delayFactor: number;
  /** First hold after a 429/503 without Retry-After; it doubles with each one in a row. */
  backoffBaseMs: number;
  /** Cap on adaptive delays and back-off holds. */
  maxBackoffMs: number;
  /** Cap on how long one Retry-After holds the queue. */
  maxRetryAfterMs: number;
}

/**
 * When a queue's next request may start, after a request that needed `delayMs` spacing
 * (configured delay or Crawl-delay) ended `now`: a slow answer stretches the delay (as Heritrix's
 * delay factor does), a 429/503 holds the queue for its Retry-After or an exponential back-off,
 * and any normal answer ends the back-off. Never earlier than already promised.
 */
export function afterRequest(
  timing: QueueTiming,
  feedback: Feedback,
  delayMs: number,
  now: number,
  options: SlowDownOptions,
): QueueTiming {
  const spaced = Math.max(timing.nextAt, now + delayMs);
  if (feedback.signal === 'unreached') return { nextAt: spaced, busyStreak: timing.busyStreak };
  if (feedback.signal === 'answered') {
    const adaptive = Math.min(options.maxBackoffMs, options.delayFactor * feedback.durationMs);
    return { nextAt: Math.max(spaced, now + adaptive), busyStreak: 0 };
  }
  const busyStreak = timing.busyStreak + 1;
  const hold =
    feedback.retryAfterMs !== undefined && feedback.retryAfterMs !== null
      ? Math.min(feedback.retryAfterMs, options.maxRetryAfterMs)
      : Math.min(options.maxBackoffMs, options.backoffBaseMs * 2 ** Math.min(busyStreak - 1, 30));
  return { nextAt: Math.max(spaced, now + hold), busyStreak };
}
