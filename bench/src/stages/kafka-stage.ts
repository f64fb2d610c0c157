import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  BatchingProducer,
  Codec,
  Schemas,
  schemasDir,
  silentLogger,
  urlId,
  type FetchResult,
  type StatusUpdate,
} from '@crawler/core';
import { createKafkaBus, loadKafkaConfig } from '@crawler/kafka';
import { CompressionTypes, Kafka, logLevel, Partitioners, type Producer } from 'kafkajs';
import type { StageComparison } from '../bench-results.js';
import { median } from '../stats.js';

const MESSAGES = 50_000;
const PARTITIONS = 12;
const PLAIN_BATCH = 500;
const PLAIN_IN_FLIGHT = 4;
/** Sends in flight through the batching producer, as concurrent stage handlers make them. */
const OURS_IN_FLIGHT = 256;

interface Kind {
  name: string;
  short: string;
  schema: string;
  values: unknown[];
}

/** Varied copies of the saved schema samples: a status update, and a fetched 4 KB page gzipped as the fetcher sends it. */
function messageKinds(codec: Codec, page: Buffer): Kind[] {
  const sample = <T>(schema: string) =>
    codec.decode<T>(readFileSync(join(schemasDir(), 'samples', `${schema}.v1.bin`)));
  const status = sample<StatusUpdate>(Schemas.StatusUpdate);
  const fetched = sample<FetchResult>(Schemas.FetchResult);
  const body = gzipSync(page, { level: 1 });
  const url = (i: number) => `http://127.0.0.1:4000/p/${i}`;
  return [
    {
      name: 'crawl.status (StatusUpdate)',
      short: 'crawl.status',
      schema: Schemas.StatusUpdate,
      values: Array.from({ length: MESSAGES }, (_, i) => ({ ...status, url: url(i), urlId: urlId(url(i)) })),
    },
    {
      name: 'crawl.fetched (FetchResult, 4 KB page gzipped)',
      short: 'crawl.fetched',
      schema: Schemas.FetchResult,
      values: Array.from({ length: MESSAGES }, (_, i) => ({
        ...fetched,
        url: url(i),
        urlId: urlId(url(i)),
        finalUrl: url(i),
        body,
        bodyEncoding: 'gzip',
        bodyLength: page.length,
      })),
    },
  ];
}

async function timed(work: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await work();
  return MESSAGES / ((performance.now() - started) / 1000);
}

/**
 * Kafka produce and consume with our adapter and codec (Avro-encode every message, send it through
 * the batching producer as stage handlers do; consume and decode every message) against plain
 * kafkajs moving the same bytes (pre-encoded, batches of 500; eachBatch without per-message work)
 * on the same broker, in alternating rounds.
 */
export async function measureKafkaStage(
  env: Record<string, string>,
  page: Buffer,
  rounds = 3,
): Promise<StageComparison[]> {
  const config = loadKafkaConfig({ env: { KAFKA_BROKERS: env.KAFKA_BROKERS! } });
  const bus = createKafkaBus(config, silentLogger());
  const kafka = new Kafka({
    clientId: 'bench-kafka-stage',
    brokers: env.KAFKA_BROKERS!.split(','),
    logLevel: logLevel.NOTHING,
  });
  const admin = kafka.admin();
  await admin.connect();
  const plainProducer = kafka.producer({
    createPartitioner: Partitioners.DefaultPartitioner,
    allowAutoTopicCreation: false,
  });
  await plainProducer.connect();
  const compression = config.compression === 'gzip' ? CompressionTypes.GZIP : CompressionTypes.None;
  const created: string[] = [];
  const codec = new Codec();
  const topic = async () => {
    const name = `bench-stage.${randomUUID().slice(0, 8)}`;
    created.push(name);
    // A loaded broker sometimes answers a fresh topic's metadata late: setup is not what is measured, so try again.
    for (let attempt = 1; ; attempt++) {
      try {
        await bus.createTopics([{ name, partitions: PARTITIONS, retentionMs: 3_600_000, maxMessageBytes: 1_048_576 }]);
        return name;
      } catch (error) {
        if (attempt === 3) throw error;
        await new Promise((resolve) => setTimeout(resolve, 2000));
      }
    }
  };
  try {
    const out: StageComparison[] = [];
    for (const kind of messageKinds(codec, page)) {
      const encoded = kind.values.map((value) => codec.encode(kind.schema, value));
      const key = (i: number) => `127.0.0.1:${4000 + (i % 10)}`;
      const runs = {
        oursProduce: [] as number[],
        plainProduce: [] as number[],
        oursConsume: [] as number[],
        plainConsume: [] as number[],
      };
      const filled = await topic();
      await plainSend(plainProducer, filled, encoded, key, compression);
      for (let round = 0; round < rounds; round++) {
        const ours = async () => runs.oursProduce.push(await oursProduce(bus, await topic(), codec, kind, key));
        const plain = async () => {
          const target = await topic();
          runs.plainProduce.push(await timed(() => plainSend(plainProducer, target, encoded, key, compression)));
        };
        // Alternate which goes first, so neither always meets a warmer broker.
        for (const run of round % 2 === 0 ? [ours, plain] : [plain, ours]) await run();
        runs.oursConsume.push(await oursConsume(bus, filled, codec));
        runs.plainConsume.push(await plainConsume(kafka, filled));
      }
      const loadAverage = loadavg()[0]!;
      const row = (
        what: string,
        oursRuns: number[],
        oursWhat: string,
        plainRuns: number[],
        plainWhat: string,
      ): StageComparison => ({
        stage: `Kafka ${what}: ${kind.name}`,
        short: `Kafka ${what}, ${kind.short}`,
        status: 'measured',
        ours: { what: oursWhat, perSecond: median(oursRuns) },
        limit: { what: plainWhat, perSecond: median(plainRuns) },
        ratio: median(oursRuns.map((rate, i) => rate / plainRuns[i]!)),
        note: `${MESSAGES.toLocaleString('en-US')} messages, ${PARTITIONS} partitions, acks=all, compression ${config.compression}; median of ${rounds} rounds`,
        loadAverage,
      });
      out.push(
        row(
          'produce',
          runs.oursProduce,
          `Avro encode + adapter via BatchingProducer, 1 message per send, ${OURS_IN_FLIGHT} in flight, msgs/s`,
          runs.plainProduce,
          `plain kafkajs send of the same bytes, ${PLAIN_BATCH} per send, ${PLAIN_IN_FLIGHT} in flight, msgs/s`,
        ),
        row(
          'consume',
          runs.oursConsume,
          'adapter consumer + Avro decode of every message, msgs/s',
          runs.plainConsume,
          'plain kafkajs eachBatch, no per-message work, msgs/s',
        ),
      );
    }
    return out;
  } finally {
    await plainProducer.disconnect();
    await bus.close();
    await admin.deleteTopics({ topics: created }).catch(() => undefined);
    await admin.disconnect();
  }
}

async function plainSend(
  producer: Producer,
  topic: string,
  encoded: Buffer[],
  key: (i: number) => string,
  compression: CompressionTypes,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: PLAIN_IN_FLIGHT }, async () => {
      while (next < encoded.length) {
        const from = next;
        next += PLAIN_BATCH;
        const messages = encoded.slice(from, from + PLAIN_BATCH).map((value, i) => ({ key: key(from + i), value }));
        await producer.send({ topic, acks: -1, compression, messages });
      }
    }),
  );
}

async function oursProduce(
  bus: ReturnType<typeof createKafkaBus>,
  topic: string,
  codec: Codec,
  kind: Kind,
  key: (i: number) => string,
): Promise<number> {
  const producer = new BatchingProducer(bus.producer(), { lingerMs: 5, maxBatchBytes: 1_000_000 });
  await producer.send(topic, [{ key: key(0), value: codec.encode(kind.schema, kind.values[0]) }]);
  let next = 0;
  const rate = await timed(async () => {
    await Promise.all(
      Array.from({ length: OURS_IN_FLIGHT }, async () => {
        while (next < kind.values.length) {
          const i = next++;
          await producer.send(topic, [{ key: key(i), value: codec.encode(kind.schema, kind.values[i]) }]);
        }
      }),
    );
  });
  await producer.close();
  return rate;
}

/**
 * Resolves with msgs/s from the moment the consumer got its partitions to the last message: the
 * group join (seconds, the same for both) is left out, the first fetch is not.
 */
async function countFromAssignment(
  start: (handlers: { assigned: () => void; received: (count: number) => void }) => Promise<void>,
  stop: () => Promise<void>,
): Promise<number> {
  let seen = 0;
  let assignedAt = 0;
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  await start({
    assigned: () => (assignedAt ||= performance.now()),
    received: (count) => {
      seen += count;
      if (seen >= MESSAGES) finish();
    },
  });
  await finished;
  const rate = MESSAGES / ((performance.now() - assignedAt) / 1000);
  await stop();
  return rate;
}

async function oursConsume(bus: ReturnType<typeof createKafkaBus>, topic: string, codec: Codec): Promise<number> {
  const consumer = bus.consumer({ groupId: `bench-${randomUUID()}`, topics: [topic], fromBeginning: true });
  return countFromAssignment(
    ({ assigned, received }) =>
      consumer.start({
        onAssigned: assigned,
        onMessage: async (message) => {
          codec.decode(message.value);
          received(1);
        },
      }),
    () => consumer.stop(),
  );
}

async function plainConsume(kafka: Kafka, topic: string): Promise<number> {
  const consumer = kafka.consumer({ groupId: `bench-${randomUUID()}` });
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  return countFromAssignment(
    ({ assigned, received }) => {
      consumer.on(consumer.events.GROUP_JOIN, assigned);
      return consumer.run({
        autoCommit: false,
        partitionsConsumedConcurrently: 4,
        eachBatch: async ({ batch }) => received(batch.messages.length),
      });
    },
    () => consumer.disconnect(),
  );
}
