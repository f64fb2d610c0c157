import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * One Prometheus registry per service process, with Node process metrics and a `service` label
 * on every series. Each service declares its own metrics against it in one file.
 */
export function createMetricsRegistry(service: string, options: { processMetrics?: boolean } = {}): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: 'crawler_' });
  return registry;
}

// Services declare their metrics with these, so the whole crawler uses one prom-client.
export { Counter, Gauge, Histogram, Registry, type Metric } from 'prom-client';
