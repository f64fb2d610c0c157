import { describe, expect, it } from 'vitest';
import { createMetricsRegistry } from './metrics-registry.js';
import { createStageMetrics } from './stage-metrics.js';

describe('stage metrics', () => {
  it('exposes consumed, produced, duration, retries and dead letters in Prometheus text', async () => {
    const registry = createMetricsRegistry('fetcher', { processMetrics: false });
    const observer = createStageMetrics(registry);
    observer.consumed!('crawl.frontier');
    observer.produced!('crawl.fetched', 3);
    observer.processed!('fetcher', 12, 'ok');
    observer.processed!('fetcher', 5, 'dead_letter');
    observer.retried!('fetcher', 'BACKEND_UNAVAILABLE');
    const text = await registry.metrics();
    /** The value of the series with this name and (at least) these labels, in any label order. */
    const value = (name: string, labels: Record<string, string>) =>
      text
        .split('\n')
        .filter((line) => line.startsWith(`${name}{`) && Object.entries(labels).every(([key, val]) => line.includes(`${key}="${val}"`)))
        .map((line) => Number(line.split(' ').at(-1)))[0];
    expect(value('crawler_messages_consumed_total', { topic: 'crawl.frontier', service: 'fetcher' })).toBe(1);
    expect(value('crawler_messages_produced_total', { topic: 'crawl.fetched' })).toBe(3);
    expect(value('crawler_stage_duration_seconds_count', { stage: 'fetcher', result: 'ok' })).toBe(1);
    expect(value('crawler_dead_letters_total', { stage: 'fetcher' })).toBe(1);
    expect(value('crawler_stage_retries_total', { code: 'BACKEND_UNAVAILABLE' })).toBe(1);
  });

  it('includes Node process metrics by default', async () => {
    expect(await createMetricsRegistry('x').metrics()).toContain('crawler_process_resident_memory_bytes');
  });
});
