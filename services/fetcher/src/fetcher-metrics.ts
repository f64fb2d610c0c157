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
 * "robots_unavailable" (the site's robots.txt failed, so it was not fetched).
 */
export class FetcherMetrics {
  readonly outcomes = new Map<string, number>();
  readonly robotsFetches = new Map<string, number>();
  private durationSeconds = 0;
  private fetches = 0;
  private bodyBytes = 0;

  countOutcome(outcomeClass: string, durationMs: number, wireBytes = 0): void {
    this.outcomes.set(outcomeClass, (this.outcomes.get(outcomeClass) ?? 0) + 1);
    this.durationSeconds += durationMs / 1000;
    this.fetches++;
    this.bodyBytes += wireBytes;
  }

  countRobotsFetch(record: RobotsRecord): void {
    this.robotsFetches.set(record.kind, (this.robotsFetches.get(record.kind) ?? 0) + 1);
  }

  /** Prometheus text exposition format. */
  render(gauges: FetcherGauges): string {
    const lines: string[] = [];
    // A sample's suffix is appended to the family name: labels, or "_sum"/"_count" for the summary.
    const family = (name: string, type: string, help: string, samples: [string, number][]) => {
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
      for (const [labels, value] of samples) lines.push(`${name}${labels} ${value}`);
    };
    family('crawler_fetch_outcomes_total', 'counter', 'URLs the fetcher finished, by outcome class.', [...this.outcomes].map(([name, value]) => [`{class="${name}"}`, value]));
    family('crawler_fetch_duration_seconds', 'summary', 'Time from taking a URL to its outcome, politeness waits included.', [
      ['_sum', this.durationSeconds],
      ['_count', this.fetches],
    ]);
    family('crawler_fetch_body_bytes_total', 'counter', 'Body bytes received on the wire.', [['', this.bodyBytes]]);
    family('crawler_robots_fetches_total', 'counter', 'robots.txt fetches, by result (file, allow-all, unavailable).', [...this.robotsFetches].map(([name, value]) => [`{result="${name}"}`, value]));
    family('crawler_robots_cache_lookups_total', 'counter', 'robots.txt lookups, by whether this process had it.', [
      ['{result="hit"}', gauges.robotsCacheHits],
      ['{result="miss"}', gauges.robotsCacheMisses],
    ]);
    family('crawler_politeness_queues', 'gauge', 'Politeness queues in memory.', [['', gauges.queues]]);
    family('crawler_politeness_waiting', 'gauge', 'URLs waiting for their queue.', [['', gauges.waiting]]);
    family('crawler_fetch_in_flight', 'gauge', 'Requests in flight.', [['', gauges.inFlight]]);
    return `${lines.join('\n')}\n`;
  }
}

/** The metric class of a status outcome. */
export function outcomeClass(result: { outcome: string; errorCode?: string }): string {
  if (result.errorCode === 'FETCHER_QUEUE_FULL') return 'deferred';
  if (result.errorCode === 'ROBOTS_UNAVAILABLE') return 'robots_unavailable';
  return result.outcome;
}
