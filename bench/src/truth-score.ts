export interface TruthScore {
  /** Pages in the ground truth. */
  truthPages: number;
  /** Truth pages the crawler reported fetched (each counted once). */
  fetched: number;
  /** Pages the crawler reported fetched that the truth does not list. */
  outside: number;
  /** Truth pages the server saw requested more than once. */
  requestedTwice: number;
  /** Origins whose robots.txt the server saw requested, of those in the truth. */
  robotsOrigins: number;
  origins: number;
  /** Every request the server saw, robots.txt included. */
  requests: number;
}

function canonical(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.hash = '';
    return parsed.href;
  } catch {
    return url;
  }
}

/**
 * Scores one crawl against the test web's truth: what the crawler says it fetched, checked
 * against the truth, and what the server saw (double fetches, robots.txt requests), so a peer
 * that misreports cannot look better than it behaved.
 */
export function scoreAgainstTruth(
  truthPages: readonly string[],
  okUrls: readonly string[],
  requests: ReadonlyMap<string, number>,
): TruthScore {
  const truth = new Set(truthPages.map(canonical));
  const ok = new Set(okUrls.map(canonical));
  let fetched = 0;
  for (const url of ok) if (truth.has(url)) fetched++;
  let requestedTwice = 0;
  let total = 0;
  for (const [url, count] of requests) {
    total += count;
    if (count > 1 && truth.has(canonical(url))) requestedTwice++;
  }
  const origins = new Set([...truth].map((url) => new URL(url).origin));
  let robotsOrigins = 0;
  for (const origin of origins) if ((requests.get(`${origin}/robots.txt`) ?? 0) > 0) robotsOrigins++;
  return {
    truthPages: truth.size,
    fetched,
    outside: ok.size - fetched,
    requestedTwice,
    robotsOrigins,
    origins: origins.size,
    requests: total,
  };
}
