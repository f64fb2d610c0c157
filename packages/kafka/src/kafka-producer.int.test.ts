import { randomBytes, randomUUID } from 'node:crypto';
import { MessageTooLargeError, silentLogger, type IncomingMessage } from '@crawler/core';
import { waitFor } from '@crawler/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { createKafkaBus } from './kafka-bus.js';
import { loadKafkaConfig } from './kafka-settings.js';

const bus = createKafkaBus(
  loadKafkaConfig({ env: { KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '127.0.0.1:19092' } }),
  silentLogger(),
);
const MiB = 1024 * 1024;

async function topic(maxMessageBytes: number): Promise<string> {
  const name = `kafka-producer.${randomUUID().slice(0, 8)}`;
  await bus.createTopics([{ name, partitions: 1, retentionMs: 3_600_000, maxMessageBytes }]);
  return name;
}

afterAll(() => bus.close());

describe('KafkaProducer', () => {
  it('round-trips an 8 MiB message on a topic that allows it', async () => {
    const name = await topic(10 * MiB);
    // Random bytes: gzip cannot shrink them below the topic limit, so the limit really applies.
    const value = randomBytes(8 * MiB);
    const producer = bus.producer();
    await producer.send(name, [{ key: 'big', value, headers: { kind: 'page' } }]);
    const received: IncomingMessage[] = [];
    const consumer = bus.consumer({ groupId: `g-${randomUUID()}`, topics: [name], fromBeginning: true });
    await consumer.start({ onMessage: async (message) => void received.push(message) });
    await waitFor(() => received.length === 1, 30_000);
    expect(received[0]!.value.equals(value)).toBe(true);
    expect(received[0]!.headers).toEqual({ kind: 'page' });
    await consumer.stop();
    await producer.close();
  });

  it('refuses an 8 MiB message on a 1 MiB topic with a final, named error', async () => {
    const name = await topic(MiB);
    const producer = bus.producer();
    const sending = producer.send(name, [{ key: 'big', value: randomBytes(8 * MiB) }]);
    await expect(sending).rejects.toBeInstanceOf(MessageTooLargeError);
    await expect(sending).rejects.toMatchObject({
      code: 'MESSAGE_TOO_LARGE',
      retriable: false,
      message: expect.stringContaining(`producing 1 message(s) to ${name}`),
    });
    // The producer stays usable for records that fit.
    await producer.send(name, [{ key: 'small', value: Buffer.from('fits') }]);
    await producer.close();
  });

  it('merges concurrent sends, and a send the broker refuses fails alone', async () => {
    const good = await topic(MiB);
    const tiny = await topic(2048);
    const producer = bus.producer();
    const sends = Array.from({ length: 200 }, (_, i) =>
      producer.send(good, [{ key: `host-${i % 7}`, value: Buffer.from(String(i)) }]),
    );
    const refused = producer.send(tiny, [{ key: 'k', value: randomBytes(8192) }]);
    sends.push(
      ...Array.from({ length: 100 }, (_, i) =>
        producer.send(good, [{ key: `host-${i % 7}`, value: Buffer.from(String(200 + i)) }]),
      ),
    );
    await expect(refused).rejects.toBeInstanceOf(MessageTooLargeError);
    await Promise.all(sends);
    const ids = new Set<string>();
    const consumer = bus.consumer({ groupId: `g-${randomUUID()}`, topics: [good], fromBeginning: true });
    await consumer.start({ onMessage: async (message) => void ids.add(message.value.toString()) });
    await waitFor(() => ids.size === 300, 15_000);
    await consumer.stop();
    await producer.close();
  });

  it('refuses a topic that does not exist without creating it', async () => {
    const producer = bus.producer();
    await expect(
      producer.send(`missing.${randomUUID().slice(0, 8)}`, [{ key: null, value: Buffer.from('x') }]),
    ).rejects.toMatchObject({ code: 'BUS_UNKNOWN_TOPIC', retriable: false });
    await producer.close();
  });

  it('refuses to send after close', async () => {
    const producer = bus.producer();
    await producer.close();
    await expect(producer.send('any', [{ key: null, value: Buffer.from('x') }])).rejects.toMatchObject({
      code: 'BUS_CLOSED',
    });
  });
});
