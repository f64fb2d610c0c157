import { randomUUID } from 'node:crypto';
import { partitionForKey, silentLogger, type IncomingMessage } from '@crawler/core';
import { waitFor } from '@crawler/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { createKafkaBus } from './kafka-bus.js';
import { loadKafkaConfig } from './kafka-settings.js';
import { processInstance } from './member-identity.js';

const bus = createKafkaBus(
  loadKafkaConfig({ env: { KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '127.0.0.1:19092' } }),
  silentLogger(),
);

afterAll(() => bus.close());

describe('Kafka group description', () => {
  it('names each member with its process and partitions, and when each partition last moved', async () => {
    const topic = `group-description.${randomUUID().slice(0, 8)}`;
    await bus.createTopics([{ name: topic, partitions: 4, retentionMs: 3_600_000, maxMessageBytes: 1_048_576 }]);
    const keyFor = (partition: number) =>
      Array.from({ length: 100 }, (_, i) => `host-${i}`).find((key) => partitionForKey(key, 4) === partition)!;
    const producer = bus.producer();
    await producer.send(
      topic,
      [0, 1, 2, 3].flatMap((partition) =>
        Array.from({ length: 5 }, () => ({ key: keyFor(partition), value: Buffer.from('x') })),
      ),
    );
    const groupId = `g-${randomUUID()}`;
    const seen: IncomingMessage[] = [];
    const consumers = ['one', 'two'].map((clientId) =>
      bus.consumer({ groupId, topics: [topic], fromBeginning: true, clientId }),
    );
    await Promise.all(
      consumers.map((consumer) => consumer.start({ onMessage: async (message) => void seen.push(message) })),
    );
    await waitFor(
      async () =>
        (await bus.describeGroup!(groupId, [topic])).members.reduce(
          (sum, member) => sum + member.partitions.length,
          0,
        ) === 4,
      30_000,
    );
    await waitFor(() => seen.length === 20, 15_000);
    const before = Date.now();
    // Each consumer commits what it holds; commits of partitions it does not hold are ignored.
    await Promise.all(
      consumers.map((consumer) =>
        consumer.commit([
          { topic, partition: 0, offset: 3 },
          { topic, partition: 1, offset: 5 },
        ]),
      ),
    );
    const after = Date.now();

    const description = await bus.describeGroup!(groupId, [topic]);
    expect(description.state).toBe('Stable');
    expect(description.members).toHaveLength(2);
    expect(description.members.map((member) => member.clientId).sort()).toEqual(['crawler-one', 'crawler-two']);
    for (const member of description.members) {
      expect(member.instance).toBe(processInstance);
      expect(member.host).toMatch(/^127\.0\.0\.1$|^::1$|localhost/);
      expect(member.partitions).toHaveLength(2);
    }
    expect(description.members.flatMap((member) => member.partitions.map((tp) => tp.partition)).sort()).toEqual([
      0, 1, 2, 3,
    ]);
    const [p0, p1, p2] = description.partitions;
    expect(p0).toMatchObject({ topic, partition: 0, committed: 3, end: 5, lag: 2 });
    expect(p1).toMatchObject({ partition: 1, committed: 5, end: 5, lag: 0 });
    expect(p2).toMatchObject({ partition: 2, committed: -1, end: 5, lag: 5, committedAt: null });
    for (const committed of [p0!, p1!]) {
      expect(committed.committedAt).toBeGreaterThanOrEqual(before);
      expect(committed.committedAt).toBeLessThanOrEqual(after);
    }
    expect((await bus.lag(groupId, [topic])).map((entry) => entry.lag)).toEqual(
      description.partitions.map((entry) => entry.lag),
    );

    await Promise.all(consumers.map((consumer) => consumer.stop()));
    const left = await bus.describeGroup!(groupId, [topic]);
    expect(left).toMatchObject({ state: 'Empty', members: [] });
    expect(left.partitions[0]!.committedAt).toBe(p0!.committedAt);
    await producer.close();
  });
});
