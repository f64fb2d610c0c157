import { describeBusContract } from '@crawler/core/testing';
import { describe, expect, it } from 'vitest';
import { InProcessBus } from './in-process-bus.js';

describeBusContract('in-process', async () => ({ bus: new InProcessBus(), rebalanceMs: 50 }));

describe('InProcessBus retention', () => {
  it('trims what every reading group committed', async () => {
    const bus = new InProcessBus();
    await bus.createTopics([{ name: 't', partitions: 1, retentionMs: 1, maxMessageBytes: 1000 }]);
    const consumer = bus.consumer({ groupId: 'g', topics: ['t'], fromBeginning: true });
    await consumer.start({ onMessage: async () => undefined });
    await bus.producer().send(
      't',
      Array.from({ length: 100 }, () => ({ key: 'k', value: Buffer.alloc(10) })),
    );
    await consumer.commit([{ topic: 't', partition: 0, offset: 60 }]);
    const [lag] = await bus.lag('g', ['t']);
    expect(lag).toMatchObject({ committed: 60, end: 100, lag: 40 });
    const log = (bus as unknown as { topic(n: string): { partitions: { base: number }[] } }).topic('t').partitions[0]!;
    expect(log.base).toBe(60);
    await bus.close();
  });

  it('caps the bytes of a topic nobody reads', async () => {
    const bus = new InProcessBus({ retentionBytesPerPartition: 1000 });
    await bus.createTopics([{ name: 'pages', partitions: 1, retentionMs: 1, maxMessageBytes: 1000 }]);
    for (let i = 0; i < 50; i++) await bus.producer().send('pages', [{ key: 'k', value: Buffer.alloc(100) }]);
    const log = (bus as unknown as { topic(n: string): { partitions: { bytes: number; end: number }[] } }).topic(
      'pages',
    ).partitions[0]!;
    expect(log.bytes).toBeLessThanOrEqual(1000);
    expect(log.end).toBe(50);
    await bus.close();
  });

  it('refuses unknown topics with a named error', async () => {
    const bus = new InProcessBus();
    await expect(bus.producer().send('nope', [{ key: null, value: Buffer.alloc(1) }])).rejects.toMatchObject({
      code: 'BUS_UNKNOWN_TOPIC',
    });
  });
});
