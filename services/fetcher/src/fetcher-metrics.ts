import { Counter, Gauge, Histogram, LATENCY_BUCKETS, type Metric, type Registry, ErrorCode } from '@crawler/core';
import type { RobotsRecord } from './robots/robots-fetch.js';

/** Gauges read at scrape time from the components that own them. */
export interface FetcherGauges {
  queues: number;
  waiting: number;
  inFlight: number;
  robotsCacheHits: number;
  robotsCacheMisses: number;
}

/**
 * Every fetcher metric, declared once. Outcome classes are the status outcomes, plus "truncated"
 * (a page kept cut at the size cap), "deferred" (handed back because its queue was full) and
 * "robots_unavailable" (the site's robots.txt failed, so it was not fetched). The metrics count
 * from the start; `register` puts them on the service's registry.
 */
export class FetcherMetrics {
  /** Outcomes by class, also shown on /healthz. */
  readonly outcomes = new Map<string, number>();
  private readonly outcomesTotal = new Counter({
    name: 'crawler_fetch_outcomes_total',
    help: 'URLs the fetcher finished, by outcome class.',
    labelNames: ['class'],
    registers: [],
  });
  private readonly duration = new Histogram({
    name: 'crawler_fetch_duration_seconds',
    help: 'Time from taking a URL to its outcome, politeness waits included.',
    buckets: LATENCY_BUCKETS,
    registers: [],
  });
  private readonly bodyBytes = new Counter({
    name: 'crawler_fetch_body_bytes_total',
    help: 'Body bytes received on the wire.',
    registers: [],
  });
  private readonly robotsFetches = new Counter({
    name: 'crawler_robots_fetches_total',
    help: 'robots.txt fetches, by result (file, allow-all, unavailable).',
    labelNames: ['result'],
    registers: [],
  });

  countOutcome(outcomeClass: string, durationMs: number, wireBytes = 0): void {
    this.outcomes.set(outcomeClass, (this.outcomes.get(outcomeClass) ?? 0) + 1);
    this.outcomesTotal.inc({ class: outcomeClass });
    this.duration.observe(durationMs / 1000);
    if (wireBytes > 0) this.bodyBytes.inc(wireBytes);
  }

  countRobotsFetch(record: RobotsRecord): void {
    this.robotsFetches.inc({ result: record.kind });
  }

  /** Registers every fetcher metric; the gauges call `gauges` at each scrape. */
  register(registry: Registry, gauges: () => FetcherGauges): void {
    for (const metric of [this.outcomesTotal, this.duration, this.bodyBytes, this.robotsFetches] as Metric[])
      registry.registerMetric(metric);
    const gauge = (name: string, help: string, read: (values: FetcherGauges) => number) =>
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          this.set(read(gauges()));
        },
      });
    gauge('crawler_politeness_queues', 'Politeness queues in memory.', (values) => values.queues);
    gauge('crawler_politeness_waiting', 'URLs waiting for their politeness queue.', (values) => values.waiting);
    gauge('crawler_fetch_in_flight', 'Requests in flight.', (values) => values.inFlight);
    // Counted by the robots cache itself; copied at scrape time.
    new Counter({
      name: 'crawler_robots_cache_lookups_total',
      help: 'robots.txt lookups, by whether this process had it.',
      labelNames: ['result'],
      registers: [registry],
      collect() {
        const values = gauges();
        this.reset();
        this.inc({ result: 'hit' }, values.robotsCacheHits);
        this.inc({ result: 'miss' }, values.robotsCacheMisses);
      },
    });
  }
}

/** The metric class of a status outcome. */
export function outcomeClass(result: { outcome: string; errorCode?: string }): string {
  if (result.errorCode === ErrorCode.FETCHER_QUEUE_FULL) return 'deferred';
  if (result.errorCode === ErrorCode.ROBOTS_UNAVAILABLE) return 'robots_unavailable';
  return result.outcome;
}
