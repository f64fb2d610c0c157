import {
  Codec,
  loadCatalog,
  Schemas,
  topicSpec,
  type DeadLetter,
  type OutgoingMessage,
  type Stage,
  type TopicName,
  ErrorCode,
} from '@crawler/core';
import { sampleMessages } from '@crawler/core/testing';
import { expect } from 'vitest';

/** A topic a service consumes, with the group that reads it (from schemas/catalog.json). */
export interface ConsumedTopic {
  topic: TopicName;
  schema: string;
  service: string;
  group: string;
}

export function consumedTopics(): ConsumedTopic[] {
  return loadCatalog().consumerGroups.map(({ group, service, topics }) => {
    const topic = topics[0]! as TopicName;
    return { topic, schema: topicSpec(topic).value, service, group };
  });
}

/** One poison record and what its dead letter must say. */
export interface PoisonRecord {
  message: OutgoingMessage & { key: string; headers: Record<string, string> };
  code: string;
  reason: RegExp;
}

export interface TopicRecords {
  /** good, undecodable, wrong schema, oversized, good: one key, so one partition, in this order. */
  sequence: OutgoingMessage[];
  poison: PoisonRecord[];
  goodUrls: string[];
}

const codec = new Codec();

/** The URL a record of any input schema is about: stages key their work by it. */
export function urlOf(value: unknown): string {
  const { url, sourceUrl } = value as { url?: string; sourceUrl?: string };
  return url ?? sourceUrl ?? '';
}

function encodeWithUrl(schema: string, url: string): Buffer {
  const sample = (sampleMessages as Record<string, object>)[schema]!;
  return codec.encode(schema, 'sourceUrl' in sample ? { ...sample, sourceUrl: url } : { ...sample, url });
}

/** Good records around the three kinds of poison, for one consumed topic. */
export function poisonSequence(consumed: ConsumedTopic, label: string): TopicRecords {
  const key = `${label}.${consumed.topic}.test`;
  const limit = topicSpec(consumed.topic).maxMessageBytes;
  const goodUrls = [1, 2].map((n) => `http://${key}/good-${n}`);
  const good = goodUrls.map((url) => ({
    key,
    value: encodeWithUrl(consumed.schema, url),
    headers: { 'trace-id': `${label}-${url}` },
  }));
  const wrongSchema = consumed.schema === Schemas.ReviewRecord ? Schemas.StoredPage : Schemas.ReviewRecord;
  const poison: PoisonRecord[] = [
    {
      message: {
        key,
        value: Buffer.from('{"url":"http://not-avro.test/"}\u0000\u00ff'),
        headers: { 'poison-case': 'undecodable' },
      },
      code: ErrorCode.CODEC_BAD_HEADER,
      reason: /^not an Avro single-object message: 34 bytes starting 7b227572$/,
    },
    {
      message: {
        key,
        value: codec.encode(wrongSchema, sampleMessages[wrongSchema as keyof typeof sampleMessages]),
        headers: { 'poison-case': 'wrong-schema' },
      },
      code: ErrorCode.CODEC_WRONG_SCHEMA,
      reason: new RegExp(`^expected a ${consumed.schema} but the payload is a ${wrongSchema} v1$`),
    },
    {
      // A valid record of the right schema, only too large: refused for its size, not its content.
      message: {
        key,
        value: encodeWithUrl(consumed.schema, `http://${key}/${'x'.repeat(limit)}`),
        headers: { 'poison-case': 'oversized' },
      },
      code: ErrorCode.INPUT_TOO_LARGE,
      reason: new RegExp(`^\\d+ bytes exceed ${consumed.topic.replace('.', '\\.')} max ${limit}$`),
    },
  ];
  return { sequence: [good[0]!, ...poison.map((record) => record.message), good[1]!], poison, goodUrls };
}

/** A stage that only notes the URLs it was given: the runner, not the stage, is under test. */
export function notingStage(consumed: ConsumedTopic): Stage<unknown> & { seen: string[] } {
  const seen: string[] = [];
  return {
    name: consumed.service,
    input: { topic: consumed.topic, schema: consumed.schema },
    outputs: [],
    seen,
    async handle(input) {
      seen.push(urlOf(input));
      return [];
    },
  };
}

/** Each poison record's dead letter carries its code, reason, exact bytes, key and headers. */
export function expectDeadLetters(
  dead: DeadLetter[],
  records: TopicRecords,
  consumed: ConsumedTopic,
  prefix = '',
): void {
  const key = records.poison[0]!.message.key;
  const mine = dead.filter((letter) => letter.key?.toString() === key);
  expect(mine.map((letter) => letter.errorCode)).toEqual(records.poison.map((record) => record.code));
  for (const [i, record] of records.poison.entries()) {
    const letter = mine[i]!;
    expect(letter.reason).toMatch(record.reason);
    expect(letter.value.equals(record.message.value), `${consumed.topic} ${record.code}: original bytes`).toBe(true);
    expect(letter).toMatchObject({
      topic: prefix + consumed.topic,
      service: consumed.service,
      consumerGroup: prefix + consumed.group,
      headers: record.message.headers,
      valueTruncatedFrom: null,
      attempts: 1,
    });
  }
}
