import { ErrorCode } from '../error-codes.js';
import { CrawlerError } from '../errors.js';

export interface CachedReadOptions<T> {
  maxAgeMs: number;
  timeoutMs: number;
  /** The value to use when the read fails or times out; called once per failed read. */
  fallback(error: unknown): T;
  now?: () => number;
}

/**
 * A read shared by every metric of one scrape and by scrapes close together (several Prometheus
 * servers, a dashboard refresh): at most one call in flight, its result, or its fallback, reused
 * for `maxAgeMs`. A read slower than `timeoutMs` fails, so a hung cluster cannot hold /metrics.
 */
export function cachedRead<T>(read: () => Promise<T>, options: CachedReadOptions<T>): () => Promise<T> {
  const now = options.now ?? Date.now;
  let last: { at: number; value: Promise<T> } | null = null;
  return () => {
    if (last && now() - last.at < options.maxAgeMs) return last.value;
    const value = withTimeout(read(), options.timeoutMs).catch(options.fallback);
    last = { at: now(), value };
    return value;
  };
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new CrawlerError(ErrorCode.METRICS_READ_TIMEOUT, `read for metrics took longer than ${ms} ms`)),
      ms,
    );
    timer.unref();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
