// Measures the Kafka bus adapter against plain kafkajs on the same broker; prints figures, asserts nothing.
//   npx tsc -b packages/kafka && node packages/kafka/scripts/bench-throughput.mjs
// Environment: KAFKA_BROKERS (default the local stack, 127.0.0.1:19092), BENCH_MESSAGES (default 100000),
// BENCH_SINGLES (messages for the one-message-per-send runs, default 20000), BENCH_BYTES (value size,
// default 1000), BENCH_COMPRESSION (gzip or none, default gzip), BENCH_REPEAT (runs of each case, the median
// is printed, default 3). Every topic it creates is deleted at the end.
import { randomBytes, randomUUID } from 'node:crypto';
import { BatchingProducer, silentLogger } from '@crawler/core';
import { CompressionTypes, Kafka, logLevel, Partitioners } from 'kafkajs';
import { createKafkaBus, loadKafkaConfig } from '../dist/index.js';

const brokers = process.env.KAFKA_BROKERS ?? '127.0.0.1:19092';
const total = Number(process.env.BENCH_MESSAGES ?? 100_000);
const singles = Number(process.env.BENCH_SINGLES ?? 20_000);
const bytes = Number(process.env.BENCH_BYTES ?? 1000);
const compressionName = process.env.BENCH_COMPRESSION ?? 'gzip';
const compression = compressionName === 'gzip' ? CompressionTypes.GZIP : CompressionTypes.None;
const repeat = Number(process.env.BENCH_REPEAT ?? 3);
const PARTITIONS = 12;
const BATCH = 500;
const BATCHES_IN_FLIGHT = 4;
const SINGLES_IN_FLIGHT = 64;

const config = loadKafkaConfig({ env: { KAFKA_BROKERS: brokers, KAFKA_COMPRESSION: compressionName } });
const bus = createKafkaBus(config, silentLogger());
const kafka = new Kafka({ clientId: 'bench', brokers: [brokers], logLevel: logLevel.NOTHING });
const admin = kafka.admin();
const created = [];

// Base64 text: compresses like real payloads do (about 3:4), unlike raw random bytes.
const values = Array.from({ length: 64 }, () =>
  Buffer.from(
    randomBytes(Math.ceil((bytes * 3) / 4))
      .toString('base64')
      .slice(0, bytes),
  ),
);
const message = (i) => ({
  key: `host-${i % 1000}`,
  value: values[i % values.length],
  headers: { 'trace-id': String(i) },
});

async function topic() {
  const name = `bench.${randomUUID().slice(0, 8)}`;
  await bus.createTopics([{ name, partitions: PARTITIONS, retentionMs: 3_600_000, maxMessageBytes: 1_048_576 }]);
  created.push(name);
  return name;
}

/** Runs `send(from, count)` over [0, n) in chunks of `size`, `inFlight` at a time; returns messages/s. */
async function produce(n, size, inFlight, send) {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < n) {
        const from = next;
        next += size;
        await send(from, Math.min(size, n - from));
      }
    }),
  );
  return n / ((performance.now() - started) / 1000);
}

const idempotent = { idempotent: true, maxInFlightRequests: 1 };
const range = (from, count) => Array.from({ length: count }, (_, i) => message(from + i));

async function adapterProduce(name, n, size, inFlight, wrap = (producer) => producer) {
  const producer = wrap(bus.producer());
  await producer.send(name, [message(0)]);
  const rate = await produce(n, size, inFlight, (from, count) => producer.send(name, range(from, count)));
  await producer.close();
  return rate;
}

async function plainProduce(name, n, size, inFlight, options = {}) {
  const producer = kafka.producer({
    createPartitioner: Partitioners.DefaultPartitioner,
    allowAutoTopicCreation: false,
    ...options,
  });
  await producer.connect();
  await producer.send({ topic: name, acks: -1, compression, messages: [message(0)] });
  const rate = await produce(n, size, inFlight, (from, count) =>
    producer.send({ topic: name, acks: -1, compression, messages: range(from, count) }),
  );
  await producer.disconnect();
  return rate;
}

/** Time from start to the n-th message, on a fresh group reading from the beginning; returns messages/s. */
async function adapterConsume(name, n) {
  const consumer = bus.consumer({ groupId: `bench-${randomUUID()}`, topics: [name], fromBeginning: true });
  let seen = 0;
  let done;
  const finished = new Promise((resolve) => (done = resolve));
  const started = performance.now();
  await consumer.start({ onMessage: async () => void (++seen === n && done()) });
  await finished;
  const rate = n / ((performance.now() - started) / 1000);
  await consumer.stop();
  return rate;
}

async function plainConsume(name, n, mode) {
  const consumer = kafka.consumer({ groupId: `bench-${randomUUID()}` });
  await consumer.connect();
  await consumer.subscribe({ topics: [name], fromBeginning: true });
  let seen = 0;
  let done;
  const finished = new Promise((resolve) => (done = resolve));
  const started = performance.now();
  if (mode === 'eachMessage') {
    await consumer.run({ eachMessage: async () => void (++seen === n && done()) });
  } else {
    await consumer.run({
      autoCommit: false,
      partitionsConsumedConcurrently: 4,
      eachBatch: async ({ batch }) => void ((seen += batch.messages.length) >= n && done()),
    });
  }
  await finished;
  const rate = n / ((performance.now() - started) / 1000);
  await consumer.disconnect();
  return rate;
}

/** Runs every case `repeat` times, interleaved so load from elsewhere spreads over all of them; prints medians. */
async function compare(cases) {
  const rates = cases.map(() => []);
  for (let run = 0; run < repeat; run++) {
    for (const [index, [, measure]] of cases.entries()) rates[index].push(await measure());
  }
  for (const [index, [what]] of cases.entries()) {
    const sorted = [...rates[index]].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    console.log(
      `${what.padEnd(70)} ${String(Math.round(median)).padStart(7)} msg/s  (runs: ${rates[index].map(Math.round).join(', ')})`,
    );
  }
}

try {
  await admin.connect();
  console.log(
    `${total} messages of ${bytes} B (${singles} for one-per-send runs), ${PARTITIONS} partitions, acks=all, compression ${compressionName}, broker ${brokers}`,
  );
  const adapterTopic = await topic();
  const plainTopic = await topic();
  await compare([
    [
      `produce, adapter, ${BATCH}/send, ${BATCHES_IN_FLIGHT} sends in flight`,
      async () => adapterProduce(await topic(), total, BATCH, BATCHES_IN_FLIGHT),
    ],
    [
      `produce, kafkajs, ${BATCH}/send, ${BATCHES_IN_FLIGHT} sends in flight`,
      async () => plainProduce(await topic(), total, BATCH, BATCHES_IN_FLIGHT),
    ],
    [
      `produce, kafkajs idempotent, ${BATCH}/send, ${BATCHES_IN_FLIGHT} sends in flight`,
      async () => plainProduce(await topic(), total, BATCH, BATCHES_IN_FLIGHT, idempotent),
    ],
    [
      `produce, adapter, 1/send, ${SINGLES_IN_FLIGHT} sends in flight`,
      async () => adapterProduce(await topic(), singles, 1, SINGLES_IN_FLIGHT),
    ],
    [
      `produce, core BatchingProducer over adapter, 1/send, ${SINGLES_IN_FLIGHT} in flight`,
      async () =>
        adapterProduce(await topic(), singles, 1, SINGLES_IN_FLIGHT, (producer) => new BatchingProducer(producer)),
    ],
    [
      `produce, kafkajs, 1/send, ${SINGLES_IN_FLIGHT} sends in flight`,
      async () => plainProduce(await topic(), singles, 1, SINGLES_IN_FLIGHT),
    ],
    [
      `produce, kafkajs idempotent, 1/send, ${SINGLES_IN_FLIGHT} sends in flight`,
      async () => plainProduce(await topic(), singles, 1, SINGLES_IN_FLIGHT, idempotent),
    ],
  ]);
  await adapterProduce(adapterTopic, total, BATCH, BATCHES_IN_FLIGHT);
  await plainProduce(plainTopic, total, BATCH, BATCHES_IN_FLIGHT);
  await compare([
    ['consume, adapter (onMessage per message)', () => adapterConsume(adapterTopic, total + 1)],
    [
      'consume, kafkajs eachMessage (defaults, autoCommit on)',
      () => plainConsume(plainTopic, total + 1, 'eachMessage'),
    ],
    [
      'consume, kafkajs eachBatch (no per-message work, 4 partitions at once)',
      () => plainConsume(plainTopic, total + 1, 'eachBatch'),
    ],
  ]);
} finally {
  await bus.close();
  await admin
    .deleteTopics({ topics: created })
    .catch((error) => console.error(`could not delete ${created.join(', ')}: ${error.message}`));
  await admin.disconnect();
}
