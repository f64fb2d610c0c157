import { Counter, Gauge, Histogram, LATENCY_BUCKETS, type Registry } from '@crawler/core';

/** Read at scrape time from the pool that owns them. */
export interface RenderGauges {
  busy: number;
  waiting: number;
  memoryBytes: number;
  restarts: Map<string, number>;
}

/**
 * Every rendering metric, declared once: how pages were routed, how renders ended, what their
 * sub-requests met, and the browser pool's state. They count from the start; `register` puts
 * them on the service's registry.
 */
export class RenderMetrics {
  readonly results = new Map<string, number>();
  private readonly routes = new Counter({
    name: 'crawler_render_routes_total',
    help: 'HTML pages by routing decision: rule, shell (rendered), plain, rule_never, learned_skip (not rendered).',
    labelNames: ['route'],
    registers: [],
  });
  private readonly pages = new Counter({
    name: 'crawler_render_pages_total',
    help: 'Renders by result: rendered, redirect (a script moved the page), learned_skip (its site was learned not to need rendering while it waited), or the error code that kept the page unrendered.',
    labelNames: ['result'],
    registers: [],
  });
  private readonly duration = new Histogram({
    name: 'crawler_render_duration_seconds',
    help: 'Time from routing a page to rendering to its DOM, waiting for a browser page included.',
    buckets: LATENCY_BUCKETS,
    registers: [],
  });
  private readonly subrequests = new Counter({
    name: 'crawler_render_subrequests_total',
    help: 'Requests of rendering pages: sent, cached, failed, or refused_<reason>.',
    labelNames: ['result'],
    registers: [],
  });

  countRoute(route: string): void {
    this.routes.inc({ route });
  }

  countRender(result: string, durationMs: number, subrequests: Map<string, number>): void {
    this.results.set(result, (this.results.get(result) ?? 0) + 1);
    this.pages.inc({ result });
    this.duration.observe(durationMs / 1000);
    for (const [name, count] of subrequests) if (count > 0) this.subrequests.inc({ result: name }, count);
  }

  register(registry: Registry, gauges: () => RenderGauges): void {
    registry.registerMetric(this.routes);
    registry.registerMetric(this.pages);
    registry.registerMetric(this.duration);
    registry.registerMetric(this.subrequests);
    const gauge = (name: string, help: string, read: (values: RenderGauges) => number) =>
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          this.set(read(gauges()));
        },
      });
    gauge('crawler_render_pages_busy', 'Browser pages rendering now.', (values) => values.busy);
    gauge('crawler_render_waiting', 'Pages waiting for a browser page.', (values) => values.waiting);
    gauge(
      'crawler_render_browser_memory_bytes',
      'Proportional set size of all browser processes at the last check.',
      (values) => values.memoryBytes,
    );
    // Counted by the pool; copied at scrape time.
    new Counter({
      name: 'crawler_render_browser_restarts_total',
      help: 'Browser restarts by reason: memory (over the cap), crash, stuck (a page would not close).',
      labelNames: ['reason'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [reason, count] of gauges().restarts) this.inc({ reason }, count);
      },
    });
  }
}
