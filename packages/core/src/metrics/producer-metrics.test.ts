import { describe, expect, it } from 'vitest';
import { BackendError } from '../errors.js';
import type { Bus } from '../ports/bus.js';
import { prefixTopics } from '../ports/prefixed-bus.js';
import { createMetricsRegistry } from './metrics-registry.js';
import { instrumentProducer } from './producer-metrics.js';
import { sampleValue } from './prometheus-text.js';

describe('producer metrics', () => {
  it('counts acknowledged messages by topic, and failed sends by code without counting their messages', async () => {
    let fail = false;
    const sent: string[] = [];
    const inner = {
      producer: () => ({
        send: async (topic: string) => {
          if (fail) throw new BackendError('broker down');
          sent.push(topic);
        },
        close: async () => undefined,
      }),
    } as unknown as Bus;
    const registry = createMetricsRegistry('scheduler', { processMetrics: false });
    // Labels name the topic as Kafka does, prefix and all: two crawls sharing a Prometheus stay apart.
    const producer = instrumentProducer(prefixTopics(inner, 'crawl-7.'), registry);
    const message = { key: 'a.test', value: Buffer.from('x') };
    await producer.send('crawl.frontier', [message, message, message]);
    fail = true;
    await expect(producer.send('crawl.frontier', [message])).rejects.toThrow('broker down');
    expect(sent).toEqual(['crawl-7.crawl.frontier']);
    const text = await registry.metrics();
    const topic = 'crawl-7.crawl.frontier';
    expect(sampleValue(text, 'crawler_messages_produced_total', { topic })).toBe(3);
    expect(sampleValue(text, 'crawler_produce_errors_total', { topic, code: 'BACKEND_UNAVAILABLE' })).toBe(1);
    expect(sampleValue(text, 'crawler_produce_duration_seconds_count', { topic })).toBe(1);
  });
});
