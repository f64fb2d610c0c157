import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  Codec,
  CodecError,
  schemasDir,
  Schemas,
  silentLogger,
  type IncomingMessage,
  type StoredPage,
} from '@crawler/core';
import { sampleMessages, waitFor } from '@crawler/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKafkaBus } from './kafka-bus.js';
import { loadKafkaConfig } from './kafka-settings.js';

const brokers = process.env.KAFKA_BROKERS ?? '127.0.0.1:19092';
const registryUrl = process.env.SCHEMA_REGISTRY_URL ?? 'http://127.0.0.1:18081/apis/ccompat/v6';
const topic = `registry-${randomUUID().slice(0, 8)}.crawl.pages`;
const subject = `${topic}-value`;
const logger = silentLogger();
const registryBus = createKafkaBus(
  loadKafkaConfig({ env: { KAFKA_BROKERS: brokers, SCHEMA_REGISTRY_URL: registryUrl } }),
  logger,
);
const plainBus = createKafkaBus(loadKafkaConfig({ env: { KAFKA_BROKERS: brokers } }), logger);
const codec = new Codec();
const today: StoredPage = { ...sampleMessages[Schemas.StoredPage], url: 'http://news.example.test/today' };
/** Bytes a crawl wrote before it had a registry: the saved sample of StoredPage v1. */
const before = readFileSync(join(schemasDir(), 'samples', 'crawler.StoredPage.v1.bin'));

async function registry(path: string): Promise<unknown> {
  const response = await fetch(`${registryUrl}/${path}`);
  expect(response.status, path).toBe(200);
  return response.json();
}

async function readAll(bus: typeof plainBus, count: number): Promise<IncomingMessage[]> {
  const seen: IncomingMessage[] = [];
  const consumer = bus.consumer({ groupId: `reader-${randomUUID()}`, topics: [topic], fromBeginning: true });
  await consumer.start({ onMessage: async (message) => void seen.push(message) });
  await waitFor(() => seen.length >= count, 30_000, 50);
  await consumer.stop();
  return seen.sort((a, b) => a.offset - b.offset);
}

beforeAll(async () => {
  await registryBus.createTopics([{ name: topic, partitions: 1, retentionMs: 3_600_000, maxMessageBytes: 1_048_576 }]);
  await registryBus.registerSchemas([{ topic, schema: Schemas.StoredPage }]);
  const old = plainBus.producer();
  await old.send(topic, [{ key: 'news.example.test', value: before }]);
  await old.close();
  const producer = registryBus.producer();
  await producer.send(topic, [{ key: 'news.example.test', value: codec.encode(Schemas.StoredPage, today) }]);
  await producer.close();
}, 60_000);

afterAll(async () => {
  await Promise.all([registryBus.close(), plainBus.close()]);
});

describe('the schema registry beside Kafka', () => {
  it('holds every version of the topic schema under <topic>-value, oldest first, with BACKWARD compatibility', async () => {
    const versions = codec.registry.versionsOf(Schemas.StoredPage);
    expect(await registry(`subjects/${subject}/versions`)).toHaveLength(versions.length);
    expect(await registry(`config/${subject}`)).toEqual({ compatibilityLevel: 'BACKWARD' });
    const latest = (await registry(`subjects/${subject}/versions/latest`)) as { schema: string };
    expect(JSON.parse(latest.schema)).toEqual(JSON.parse(versions.at(-1)!.definition));
  });

  it('takes every crawl.parsed version under BACKWARD, the blocks of ParsedPage v5 included', async () => {
    const parsedTopic = `registry-${randomUUID().slice(0, 8)}.crawl.parsed`;
    await registryBus.registerSchemas([{ topic: parsedTopic, schema: Schemas.ParsedPage }]);
    const versions = codec.registry.versionsOf(Schemas.ParsedPage);
    expect(versions.length).toBeGreaterThanOrEqual(5);
    expect(await registry(`subjects/${parsedTopic}-value/versions`)).toHaveLength(versions.length);
    const latest = (await registry(`subjects/${parsedTopic}-value/versions/latest`)) as { schema: string };
    expect(JSON.stringify(JSON.parse(latest.schema))).toContain('"name":"pageBlocks"');
  });

  it('a producer with the registry writes byte 0, the schema id and the same Avro body', async () => {
    const [old, now] = await readAll(plainBus, 2);
    expect(old!.value.subarray(0, 2)).toEqual(Buffer.from([0xc3, 0x01]));
    const latest = (await registry(`subjects/${subject}/versions/latest`)) as { id: number };
    expect(now!.value[0]).toBe(0);
    expect(now!.value.readInt32BE(1)).toBe(latest.id);
    expect(now!.value.subarray(5)).toEqual(codec.encode(Schemas.StoredPage, today).subarray(10));
  });

  it('a consumer with the registry reads both framings, so a crawl can switch without losing a message', async () => {
    const values = (await readAll(registryBus, 2)).map((message) => codec.decode<StoredPage>(message.value));
    expect(values.map((value) => value.url)).toEqual([codec.decode<StoredPage>(before).url, today.url]);
  });

  it('a reader without the registry is told which setting it lacks', async () => {
    const [, now] = await readAll(plainBus, 2);
    expect(() => codec.decode(now!.value)).toThrow(CodecError);
    expect(() => codec.decode(now!.value)).toThrow(/schema id \d+ .*SCHEMA_REGISTRY_URL/);
  });
});
