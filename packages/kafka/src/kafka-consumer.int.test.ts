import { randomUUID } from 'node:crypto';
import {
  partitionForKey,
  silentLogger,
  type Bus,
  type BusConsumer,
  type IncomingMessage,
  type TopicPartition,
} from '@crawler/core';
import { waitFor } from '@crawler/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { createKafkaBus } from './kafka-bus.js';
import { loadKafkaConfig } from './kafka-settings.js';

const brokers = process.env.KAFKA_BROKERS ?? '127.0.0.1:19092';
const buses: Bus[] = [];

function bus(env: Record<string, string> = {}): Bus {
  const created = createKafkaBus(loadKafkaConfig({ env: { KAFKA_BROKERS: brokers, ...env } }), silentLogger());
  buses.push(created);
  return created;
}

async function topic(on: Bus, partitions: number): Promise<string> {
  const name = `kafka-consumer.${randomUUID().slice(0, 8)}`;
  await on.createTopics([{ name, partitions, retentionMs: 3_600_000, maxMessageBytes: 1_048_576 }]);
  return name;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterAll(async () => {
  await Promise.all(buses.map((created) => created.close()));
});

describe('KafkaConsumer', () => {
  it('resumes from committed offsets in a new consumer on a new connection; commits for partitions it does not hold are ignored', async () => {
    const first = bus();
    const name = await topic(first, 2);
    const keys = ['a', 'b', 'c', 'd', 'e'];
    const byPartition = [0, 1].map((partition) => keys.find((key) => partitionForKey(key, 2) === partition)!);
    await first.producer().send(
      name,
      byPartition.flatMap((key) => Array.from({ length: 10 }, (_, i) => ({ key, value: Buffer.from(`${key}${i}`) }))),
    );
    const groupId = `g-${randomUUID()}`;
    const seen: IncomingMessage[] = [];
    const before = first.consumer({ groupId, topics: [name], fromBeginning: true });
    await before.start({ onMessage: async (message) => void seen.push(message) });
    await waitFor(() => seen.length === 20, 15_000);
    await before.commit([
      { topic: name, partition: 0, offset: 7 },
      { topic: name, partition: 1, offset: 3 },
      { topic: name, partition: 5, offset: 1 },
      { topic: 'not-subscribed', partition: 0, offset: 1 },
    ]);
    await before.stop();

    const second = bus();
    const again: IncomingMessage[] = [];
    const after = second.consumer({ groupId, topics: [name], fromBeginning: true });
    await after.start({ onMessage: async (message) => void again.push(message) });
    await waitFor(() => again.length === 10, 15_000);
    // negative window: a message before the committed offsets would arrive in it; holds however slow the machine.
    await sleep(500);
    const offsets = (partition: number) =>
      again.filter((message) => message.partition === partition).map((message) => message.offset);
    expect(offsets(0)).toEqual([7, 8, 9]);
    expect(offsets(1)).toEqual([3, 4, 5, 6, 7, 8, 9]);
    await after.stop();
  });

  it('without fromBeginning, delivers a message produced right after start() resolved', async () => {
    const on = bus();
    const producer = on.producer();
    // kafkajs looks up the log end at its first fetch; without waiting for it this failed within ~10 rounds.
    for (let round = 0; round < 15; round++) {
      const name = await topic(on, 2);
      await producer.send(name, [{ key: 'k', value: Buffer.from('old') }]);
      const seen: string[] = [];
      const consumer = on.consumer({ groupId: `g-${randomUUID()}`, topics: [name], fromBeginning: false });
      await consumer.start({ onMessage: async (message) => void seen.push(message.value.toString()) });
      await producer.send(name, [{ key: 'k', value: Buffer.from('new') }]);
      await waitFor(() => seen.length === 1, 10_000);
      expect(seen).toEqual(['new']);
      await consumer.stop();
    }
  });

  it('stop() waits for the onMessage call in flight and delivers nothing after it', async () => {
    const on = bus();
    const name = await topic(on, 1);
    await on.producer().send(
      name,
      [0, 1, 2].map((i) => ({ key: 'k', value: Buffer.from(String(i)) })),
    );
    const events: string[] = [];
    let release!: () => void;
    const consumer = on.consumer({ groupId: `g-${randomUUID()}`, topics: [name], fromBeginning: true });
    await consumer.start({
      onMessage: async (message) => {
        events.push(`begin ${message.value.toString()}`);
        await new Promise<void>((resolve) => (release = resolve));
        events.push(`end ${message.value.toString()}`);
      },
    });
    await waitFor(() => events.length === 1, 15_000);
    let stopped = false;
    const stopping = consumer.stop().then(() => {
      stopped = true;
      events.push('stopped');
    });
    // negative window: stop() must not resolve while onMessage is held; holds however slow the machine.
    await sleep(1500);
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(events).toEqual(['begin 0', 'end 0', 'stopped']);
  });

  it('delivers a message again, in order, after onMessage threw for it', async () => {
    const on = bus();
    const name = await topic(on, 1);
    await on.producer().send(
      name,
      [0, 1, 2].map((i) => ({ key: 'k', value: Buffer.from(String(i)) })),
    );
    const seen: string[] = [];
    const consumer = on.consumer({ groupId: `g-${randomUUID()}`, topics: [name], fromBeginning: true });
    await consumer.start({
      onMessage: async (message) => {
        seen.push(message.value.toString());
        if (seen.length === 2) throw new Error('handler failed once');
      },
    });
    await waitFor(() => seen.length === 4, 20_000);
    expect(seen).toEqual(['0', '1', '1', '2']);
    await expect(consumer.start({ onMessage: async () => undefined })).rejects.toMatchObject({
      code: 'BUS_CONSUMER_STARTED',
    });
    await consumer.stop();
  });

  it('keeps its membership while onMessage holds a message longer than the session timeout', async () => {
    const on = bus({ KAFKA_SESSION_TIMEOUT_MS: '6000' });
    const name = await topic(on, 1);
    await on.producer().send(
      name,
      [0, 1].map((i) => ({ key: 'k', value: Buffer.from(String(i)) })),
    );
    const assigned: TopicPartition[][] = [];
    const revoked: TopicPartition[][] = [];
    const seen: string[] = [];
    const consumer = on.consumer({ groupId: `g-${randomUUID()}`, topics: [name], fromBeginning: true });
    await consumer.start({
      onMessage: async (message) => {
        seen.push(message.value.toString());
        // simulated work: held past the 6 s session timeout; a slower machine only holds it longer.
        if (seen.length === 1) await sleep(10_000);
      },
      onAssigned: (partitions) => void assigned.push(partitions),
      onRevoked: async (partitions) => void revoked.push(partitions),
    });
    await waitFor(() => seen.length === 2, 30_000);
    expect(seen).toEqual(['0', '1']);
    expect(assigned).toHaveLength(1);
    expect(revoked).toHaveLength(0);
    await consumer.stop();
  }, 60_000);

  it('loses no message while members join and leave under load, and onRevoked commits leave no duplicates', async () => {
    const on = bus();
    const name = await topic(on, 6);
    const groupId = `g-${randomUUID()}`;
    const total = 6000;
    const received = new Map<string, number>();
    const members: { stop(): Promise<void> }[] = [];

    // Each member commits what it finished every second, and in onRevoked after a drain pause: the
    // pause shows the rejoin waits for onRevoked, not just that a quick commit wins a race.
    async function join(): Promise<{ stop(): Promise<void> }> {
      const position = new Map<number, { topic: string; partition: number; offset: number }>();
      const consumer: BusConsumer = on.consumer({ groupId, topics: [name], fromBeginning: true });
      const commit = () => consumer.commit([...position.values()]);
      const timer = setInterval(() => void commit().catch(() => undefined), 1000);
      await consumer.start({
        onMessage: async (message) => {
          const id = message.value.toString();
          received.set(id, (received.get(id) ?? 0) + 1);
          position.set(message.partition, {
            topic: message.topic,
            partition: message.partition,
            offset: message.offset + 1,
          });
          // simulated work: now and then a slower message, so work is in flight at a rebalance.
          if (message.offset % 50 === 0) await sleep(20);
        },
        onRevoked: async (partitions) => {
          // simulated work: the drain pause the comment above explains.
          await sleep(300);
          await commit();
          for (const { partition } of partitions) position.delete(partition);
        },
      });
      let stopped: Promise<void> | null = null;
      const member = {
        stop: () => (stopped ??= consumer.stop().finally(() => clearInterval(timer))),
      };
      members.push(member);
      return member;
    }

    const producer = on.producer();
    const producing = (async () => {
      for (let batch = 0; batch < 60; batch++) {
        await producer.send(
          name,
          Array.from({ length: total / 60 }, (_, i) => {
            const id = batch * (total / 60) + i;
            return { key: `host-${id % 97}`, value: Buffer.from(String(id)) };
          }),
        );
        // simulated work: the load arrives over about three seconds, while members join and leave.
        await sleep(50);
      }
    })();
    // Each member joins once the group has settled with the ones before it, so every join is a rebalance under load.
    const settled = (members: number) =>
      waitFor(
        async () => {
          const group = await on.describeGroup!(groupId, [name]);
          return group.state === 'Stable' && group.members.length === members;
        },
        60_000,
        100,
        `the group to settle with ${members} members`,
      );
    const first = await join();
    await settled(1);
    await join();
    await settled(2);
    await join();
    await settled(3);
    await first.stop();
    await producing;
    await waitFor(() => received.size === total, 60_000);
    // negative window: a duplicate redelivered late would arrive in it; holds however slow the machine.
    await sleep(1000);
    await Promise.all(members.map((member) => member.stop()));
    const duplicates = [...received.values()].reduce((sum, count) => sum + count - 1, 0);
    console.info(
      `rebalance under load: ${total} messages, ${received.size} distinct delivered, ${duplicates} duplicates`,
    );
    expect(received.size).toBe(total);
    expect(duplicates).toBe(0);
  }, 120_000);
});
