import { createMetricsRegistry, loadRuntimeConfig, sampleValue, Schemas, silentLogger, Topics } from '@crawler/core';
import { sampleMessages } from '@crawler/core/testing';
import { describe, expect, it } from 'vitest';
import { createServiceBus } from './service-bus.js';

describe('createServiceBus', () => {
  it("gives a service the crawl's bus with every topic, a counted producer and every group's lag on /metrics", async () => {
    const registry = createMetricsRegistry('fetcher', { processMetrics: false });
    const wire = await createServiceBus(
      loadRuntimeConfig({ env: { CRAWLER_BUS: 'embedded' } }),
      registry,
      silentLogger(),
      {},
    );
    const { bus, producer, codec } = wire.ports;
    const value = codec.encode(Schemas.StatusUpdate, sampleMessages[Schemas.StatusUpdate]);
    await producer.send(Topics.status, [{ key: 'a.test', value }]);
    const text = await registry.metrics();
    expect(sampleValue(text, 'crawler_messages_produced_total', { topic: Topics.status })).toBe(1);
    expect(
      sampleValue(text, 'crawler_consumer_lag', { group: 'scheduler.status', topic: Topics.status, partition: '0' }),
    ).toBeDefined();
    expect((await bus.lag('scheduler.status', [Topics.status])).reduce((sum, entry) => sum + entry.lag, 0)).toBe(1);
    await wire.close();
  });
});
