import { randomUUID } from 'node:crypto';
import { silentLogger } from '@crawler/core';
import { waitFor } from '@crawler/core/testing';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, describe, expect, it } from 'vitest';
import { createKafkaBus } from './kafka-bus.js';
import { loadKafkaConfig } from './kafka-settings.js';
import { RecentRecords, type RecentRecord } from './recent-records.js';

const config = loadKafkaConfig({ env: { KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '127.0.0.1:19092' } });
const bus = createKafkaBus(config, silentLogger());
const recent = new RecentRecords(config, silentLogger());
const producer = new Kafka({ brokers: [...config.brokers], logLevel: logLevel.NOTHING }).producer();

afterAll(async () => {
  await producer.disconnect();
  await recent.close();
  await bus.close();
});

describe('recent records', () => {
  it('counts and reads what was produced since a time, newest first when capped, then follows', async () => {
    const topic = `recent.${randomUUID().slice(0, 8)}`;
    await bus.createTopics([{ name: topic, partitions: 2, retentionMs: 3_600_000, maxMessageBytes: 1_048_576 }]);
    await producer.connect();
    const now = Date.now();
    const at = (partition: number, ageMs: number, text: string) => ({
      topic,
      messages: [{ partition, value: text, timestamp: String(now - ageMs) }],
    });
    for (const batch of [
      at(0, 600_000, 'old-0'),
      at(0, 500_000, 'old-1'),
      at(0, 20_000, 'new-0'),
      at(0, 10_000, 'new-1'),
      at(0, 5_000, 'new-2'),
      at(1, 700_000, 'old-2'),
      at(1, 1_000, 'new-3'),
    ])
      await producer.send(batch);

    expect(await recent.countSince(topic, now - 60_000)).toBe(4);
    expect(await recent.countSince(topic, now + 60_000)).toBe(0);

    const seen: RecentRecord[] = [];
    const following = await recent.follow(topic, now - 60_000, 2, (record) => seen.push(record));
    await following.caughtUp;
    expect(seen.map((record) => record.value.toString()).sort()).toEqual(['new-1', 'new-2', 'new-3']);
    expect(seen.every((record) => record.timestamp >= now - 60_000)).toBe(true);
    await producer.send(at(1, 0, 'live'));
    await waitFor(() => seen.some((record) => record.value.toString() === 'live'), 15_000);
    await following.stop();
  });
});
