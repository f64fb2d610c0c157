import {
  BatchingProducer,
  Codec,
  loadCatalog,
  prefixTopics,
  silentLogger,
  StageRunner,
  Topics,
  type Bus,
  type BusConsumer,
  type DeadLetter,
} from '@crawler/core';
import { waitFor } from '@crawler/core/testing';
import { createKafkaBus, loadKafkaConfig } from '@crawler/kafka';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consumedTopics, expectDeadLetters, notingStage, poisonSequence } from './support/poison-records.js';
import { stackAddresses } from './support/stack-env.js';
import { freshNames } from './support/stack-names.js';

const codec = new Codec();
const stack = stackAddresses();
const prefix = freshNames('poison').CRAWLER_TOPIC_PREFIX;

/** Deletes this test's topics and groups by their prefix; what cannot be deleted stays (cleanup must not fail the test). */
async function dropPrefixed(): Promise<void> {
  const admin = new Kafka({
    clientId: 'poison-cleanup',
    brokers: stack.KAFKA_BROKERS.split(','),
    logLevel: logLevel.NOTHING,
  }).admin();
  await admin.connect();
  try {
    const groups = (await admin.listGroups()).groups
      .map(({ groupId }) => groupId)
      .filter((id) => id.startsWith(prefix));
    if (groups.length > 0) await admin.deleteGroups(groups).catch(() => undefined);
    const topics = (await admin.listTopics()).filter((topic) => topic.startsWith(prefix));
    if (topics.length > 0) await admin.deleteTopics({ topics });
  } finally {
    await admin.disconnect();
  }
}

/**
 * Issue 10, poison messages, on Kafka: the stage runners of the four services' inputs (with stages
 * that only note what they get) each meet undecodable bytes, a record of another schema and a
 * record over its topic's limit between two good records. The oversized ones reach the topic as
 * producers send them, gzip-compressed: the broker checks the compressed batch, not the record.
 */
describe('poison messages on every consumed topic (Kafka)', () => {
  let bus: Bus;
  let tap: BusConsumer;
  const runners: StageRunner<unknown>[] = [];
  const dead: DeadLetter[] = [];

  beforeAll(async () => {
    bus = prefixTopics(
      createKafkaBus(
        loadKafkaConfig({ env: { KAFKA_BROKERS: stack.KAFKA_BROKERS, KAFKA_COMPRESSION: 'gzip' } }),
        silentLogger(),
      ),
      prefix,
    );
    await bus.createTopics(loadCatalog().topics);
    tap = bus.consumer({ groupId: 'dlq-tap', topics: [Topics.dlq], fromBeginning: true });
    await tap.start({ onMessage: async (message) => void dead.push(codec.decode<DeadLetter>(message.value)) });
  });

  afterAll(async () => {
    await Promise.all(runners.map((runner) => runner.stop()));
    await bus?.close();
    await dropPrefixed();
  });

  it('dead-letters each poison record with its code, reason and original bytes; the good records after it are processed and committed', async () => {
    const consumed = consumedTopics();
    const producer = new BatchingProducer(bus.producer());
    const stages = consumed.map((entry) => notingStage(entry));
    runners.push(
      ...stages.map(
        (stage, i) =>
          new StageRunner({
            stage,
            bus,
            codec,
            producer,
            groupId: consumed[i]!.group,
            logger: silentLogger(),
            concurrency: 4,
            commitIntervalMs: 200,
          }),
      ),
    );
    await Promise.all(runners.map((runner) => runner.start()));

    const records = consumed.map((entry) => poisonSequence(entry, 'int'));
    for (const [i, entry] of consumed.entries()) await bus.producer().send(entry.topic, records[i]!.sequence);

    await waitFor(
      () => dead.length >= 3 * consumed.length && stages.every((stage) => stage.seen.length === 2),
      40_000,
      100,
    );
    for (const [i, entry] of consumed.entries()) {
      expect(stages[i]!.seen, entry.topic).toEqual(records[i]!.goodUrls);
      expectDeadLetters(dead, records[i]!, entry, prefix);
    }
    expect(dead).toHaveLength(3 * consumed.length);
    await waitFor(
      async () => {
        const lags = await Promise.all(consumed.map((entry) => bus.lag(entry.group, [entry.topic])));
        return lags.flat().every((partition) => partition.end === 0 || partition.committed === partition.end);
      },
      15_000,
      200,
    );
  }, 60_000);
});
