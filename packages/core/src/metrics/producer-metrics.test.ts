import { describe, expect, it } from 'vitest';
import { BackendError } from '../errors.js';
import type { BusProducer } from '../ports/bus.js';
import { createMetricsRegistry } from './metrics-registry.js';
import { instrumentProducer } from './producer-metrics.js';
import { sampleValue } from './prometheus-text.js';

describe('producer metrics', () => {
  it('counts acknowledged messages by topic, and failed sends by code without counting their messages', async () => {
    let fail = false;
    const inner: BusProducer = {
      send: async () => {
        if (fail) throw new BackendError('broker down');
      },
      close: async () => undefined,
    };
    const registry = createMetricsRegistry('scheduler', { processMetrics: false });
    const producer = instrumentProducer(inner, registry);
    const message = { key: 'a.test', value: Buffer.from('x') };
    await producer.send('crawl.frontier', [message, message, message]);
    fail = true;
    await expect(producer.send('crawl.frontier', [message])).rejects.toThrow('broker down');
    const text = await registry.metrics();
    expect(sampleValue(text, 'crawler_messages_produced_total', { topic: 'crawl.frontier' })).toBe(3);
    expect(
      sampleValue(text, 'crawler_produce_errors_total', { topic: 'crawl.frontier', code: 'BACKEND_UNAVAILABLE' }),
    ).toBe(1);
    expect(sampleValue(text, 'crawler_produce_duration_seconds_count', { topic: 'crawl.frontier' })).toBe(1);
  });
});
