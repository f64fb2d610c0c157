import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { createLogger, partitionForKey, type IncomingMessage } from '@crawler/core';
import { waitFor } from '@crawler/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { createKafkaBus } from './kafka-bus.js';
import { loadKafkaConfig } from './kafka-settings.js';

const lines: string[] = [];
const logger = createLogger('test', {
  level: 'info',
  destination: new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  }),
});
const bus = createKafkaBus(
  loadKafkaConfig({ env: { KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '127.0.0.1:19092' } }),
  logger,
);

afterAll(() => bus.close());

describe('KafkaTopicAdmin', () => {
  it('creates topics once and leaves an existing one alone, saying so when its partitions differ', async () => {
    const name = `kafka-admin.${randomUUID().slice(0, 8)}`;
    const config = { name, partitions: 3, retentionMs: 3_600_000, maxMessageBytes: 2_097_152 };
    await bus.createTopics([config, config]);
    await bus.createTopics([config]);
    await bus.createTopics([{ ...config, partitions: 6 }]);
    const lag = await bus.lag(`g-${randomUUID()}`, [name]);
    expect(lag.map((entry) => entry.partition)).toEqual([0, 1, 2]);
    await waitFor(() => lines.some((line) => line.includes('different partition count') && line.includes(name)), 5000);
  });

  it('returns from createTopics only when every new partition takes writes, so the first produce writes each record once', async () => {
    // Without waiting, a produce right after creating many partitions met NOT_LEADER on some and
    // kafkajs retried it whole: 100 records became 150 to 340.
    const prefix = `kafka-admin-${randomUUID().slice(0, 8)}.`;
    await bus.createTopics(
      Array.from({ length: 8 }, (_, i) => ({
        name: `${prefix}${i}`,
        partitions: 12,
        retentionMs: 3_600_000,
        maxMessageBytes: 1_048_576,
      })),
    );
    const producer = bus.producer();
    await producer.send(
      `${prefix}0`,
      Array.from({ length: 100 }, (_, i) => ({ key: `host-${i}`, value: Buffer.from(String(i)) })),
    );
    const lag = await bus.lag(`g-${randomUUID()}`, [`${prefix}0`]);
    expect(lag.reduce((sum, partition) => sum + partition.end, 0)).toBe(100);
    await producer.close();
  });

  it('reports lag as produced minus committed, and from the earliest offset when nothing was committed', async () => {
    const name = `kafka-admin.${randomUUID().slice(0, 8)}`;
    await bus.createTopics([{ name, partitions: 3, retentionMs: 3_600_000, maxMessageBytes: 1_048_576 }]);
    const keyFor = (partition: number) =>
      Array.from({ length: 100 }, (_, i) => `host-${i}`).find((key) => partitionForKey(key, 3) === partition)!;
    const counts = [12, 5, 0];
    const producer = bus.producer();
    await producer.send(
      name,
      counts.flatMap((count, partition) =>
        Array.from({ length: count }, () => ({ key: keyFor(partition), value: Buffer.from('x') })),
      ),
    );
    const groupId = `g-${randomUUID()}`;
    expect(await bus.lag(groupId, [name])).toEqual([
      { topic: name, partition: 0, committed: -1, end: 12, lag: 12 },
      { topic: name, partition: 1, committed: -1, end: 5, lag: 5 },
      { topic: name, partition: 2, committed: -1, end: 0, lag: 0 },
    ]);
    const seen: IncomingMessage[] = [];
    const consumer = bus.consumer({ groupId, topics: [name], fromBeginning: true });
    await consumer.start({ onMessage: async (message) => void seen.push(message) });
    await waitFor(() => seen.length === 17, 15_000);
    await consumer.commit([{ topic: name, partition: 0, offset: 9 }]);
    expect(await bus.lag(groupId, [name])).toEqual([
      { topic: name, partition: 0, committed: 9, end: 12, lag: 3 },
      { topic: name, partition: 1, committed: -1, end: 5, lag: 5 },
      { topic: name, partition: 2, committed: -1, end: 0, lag: 0 },
    ]);
    await consumer.stop();
    await producer.close();
  });
});
