import { Counter, Gauge, type Registry } from 'prom-client';
import { errorCode, errorMessage } from '../errors.js';
import type { Logger } from '../log/logger.js';
import type { LinkBase, LinkBaseStats } from '../ports/linkbase.js';
import { cachedRead } from './cached-read.js';

/** What the link base knows, by status, and how much of it is due and leased: read at scrape time. */
export function registerLinkBaseMetrics(
  registry: Registry,
  linkbase: LinkBase,
  logger: Logger,
  now: () => number = Date.now,
): void {
  // Its collect waits for this scrape's read, so a failure shows in the same scrape.
  const errors = new Counter({
    name: 'crawler_linkbase_read_errors_total',
    help: 'Failed reads of link base statistics for metrics, by error code.',
    labelNames: ['code'],
    registers: [registry],
    async collect() {
      await stats();
    },
  });
  const stats = cachedRead<LinkBaseStats | null>(() => linkbase.stats(now(), { due: true }), {
    maxAgeMs: 5_000,
    timeoutMs: 8_000,
    now,
    fallback: (error) => {
      errors.inc({ code: errorCode(error) });
      logger.warn(
        { component: 'linkbase-metrics', err: errorMessage(error) },
        'cannot read link base statistics for metrics',
      );
      return null;
    },
  });
  new Gauge({
    name: 'crawler_linkbase_urls',
    help: 'URLs in the link base, by status.',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      const current = await stats();
      this.reset();
      for (const [status, count] of Object.entries(current?.byStatus ?? {})) this.set({ status }, count);
    },
  });
  new Gauge({
    name: 'crawler_linkbase_urls_due',
    help: 'URLs due for fetching now.',
    registers: [registry],
    async collect() {
      const current = await stats();
      if (current?.due != null) this.set(current.due);
    },
  });
  new Gauge({
    name: 'crawler_linkbase_urls_leased',
    help: 'URLs handed to fetchers and not yet answered.',
    registers: [registry],
    async collect() {
      const current = await stats();
      if (current) this.set(current.leased);
    },
  });
}
