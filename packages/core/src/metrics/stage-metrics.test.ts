import { describe, expect, it } from 'vitest';
import { createMetricsRegistry } from './metrics-registry.js';
import { sampleValue } from './prometheus-text.js';
import { createStageMetrics } from './stage-metrics.js';

describe('stage metrics', () => {
  it('exposes consumed, duration, retries and dead letters in Prometheus text', async () => {
    const registry = createMetricsRegistry('fetcher', { processMetrics: false });
    const observer = createStageMetrics(registry);
    observer.consumed!('crawl.frontier');
    observer.processed!('fetcher', 12, 'ok');
    observer.processed!('fetcher', 5, 'dead_letter');
    observer.retried!('fetcher', 'BACKEND_UNAVAILABLE');
    const text = await registry.metrics();
    expect(sampleValue(text, 'crawler_messages_consumed_total', { topic: 'crawl.frontier', service: 'fetcher' })).toBe(
      1,
    );
    expect(sampleValue(text, 'crawler_stage_duration_seconds_count', { stage: 'fetcher', result: 'ok' })).toBe(1);
    expect(
      sampleValue(text, 'crawler_stage_duration_seconds_bucket', { stage: 'fetcher', result: 'ok', le: '0.01' }),
    ).toBe(0);
    expect(
      sampleValue(text, 'crawler_stage_duration_seconds_bucket', { stage: 'fetcher', result: 'ok', le: '0.025' }),
    ).toBe(1);
    expect(sampleValue(text, 'crawler_dead_letters_total', { stage: 'fetcher' })).toBe(1);
    expect(sampleValue(text, 'crawler_stage_retries_total', { code: 'BACKEND_UNAVAILABLE' })).toBe(1);
  });

  it('includes Node process metrics by default', async () => {
    expect(await createMetricsRegistry('x').metrics()).toContain('crawler_process_resident_memory_bytes');
  });
});
