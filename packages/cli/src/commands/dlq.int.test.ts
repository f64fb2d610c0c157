import { randomUUID } from 'node:crypto';
import {
  BatchingProducer,
  Codec,
  CrawlerError,
  loadCatalog,
  prefixTopics,
  Schemas,
  silentLogger,
  StageRunner,
  Topics,
  type FrontierRequest,
  type Stage,
} from '@crawler/core';
import { sampleMessages, waitFor } from '@crawler/core/testing';
import { createKafkaBus, loadKafkaConfig } from '@crawler/kafka';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dlqCommand } from './dlq.js';

const brokers = process.env.KAFKA_BROKERS ?? '127.0.0.1:19092';
const prefix = `dlq-cli-${randomUUID().slice(0, 8)}.`;
const env = { CRAWLER_BUS: 'kafka', KAFKA_BROKERS: brokers, CRAWLER_TOPIC_PREFIX: prefix };
// The crawl's bus, as a service has it: catalog names, CRAWLER_TOPIC_PREFIX on the broker.
const bus = prefixTopics(createKafkaBus(loadKafkaConfig({ env }), silentLogger()), prefix);
const codec = new Codec();

async function dlq(args: string[]): Promise<string> {
  const out: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => out.push(String(chunk)) > 0);
  try {
    expect(await dlqCommand(args, env)).toBe(0);
  } finally {
    write.mockRestore();
  }
  return out.join('');
}

/** A fetcher stand-in with a bug for one host until `fixed`; it notes the URLs it handled. */
const handled: string[] = [];
let fixed = false;
const stage: Stage<FrontierRequest> = {
  name: 'fetcher',
  input: { topic: Topics.frontier, schema: Schemas.FrontierRequest },
  outputs: [],
  async handle(input) {
    if (!fixed && input.queueKey === 'buggy.test')
      throw new CrawlerError('CODEC_INVALID_VALUE', `cannot handle ${input.url}`);
    handled.push(input.url);
    return [];
  },
};
const runner = new StageRunner({
  stage,
  bus,
  codec,
  producer: new BatchingProducer(bus.producer()),
  groupId: 'fetcher',
  logger: silentLogger(),
  concurrency: 2,
  commitIntervalMs: 200,
});
const request = (host: string, n: number) => ({
  key: host,
  value: codec.encode(Schemas.FrontierRequest, {
    ...sampleMessages[Schemas.FrontierRequest],
    url: `http://${host}/${n}`,
    host,
    queueKey: host,
  }),
  headers: { 'trace-id': `trace-${host}-${n}` },
});

beforeAll(async () => {
  await bus.createTopics(loadCatalog().topics);
  await runner.start();
});

afterAll(async () => {
  await runner.stop();
  await bus.close();
  const admin = new Kafka({ clientId: 'dlq-cli-cleanup', brokers: [brokers], logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  const groups = (await admin.listGroups()).groups.map(({ groupId }) => groupId).filter((id) => id.startsWith(prefix));
  await admin.deleteGroups(groups).catch(() => undefined);
  await admin
    .deleteTopics({ topics: (await admin.listTopics()).filter((topic) => topic.startsWith(prefix)) })
    .catch(() => undefined);
  await admin.disconnect();
});

describe('crawler dlq on Kafka', () => {
  it('lists what a service dead-lettered; replay sends it back once and the fixed service processes it', async () => {
    await bus
      .producer()
      .send(Topics.frontier, [
        request('ok.test', 1),
        request('buggy.test', 2),
        { key: 'ok.test', value: Buffer.from('garbage'), headers: {} },
        request('ok.test', 3),
      ]);
    await waitFor(() => handled.length === 2, 30_000, 100);

    const listed = await waitFor(
      async () => {
        const text = await dlq(['list']);
        return text.endsWith('2 dead letters\n') ? text : null;
      },
      30_000,
      500,
    );
    console.info(`crawler dlq list:\n${listed}`);
    expect(listed).toMatch(
      / crawl\.frontier +\d+:\d+ +buggy\.test +fetcher +CODEC_INVALID_VALUE +1 +no +cannot handle http:\/\/buggy\.test\/2\n/,
    );
    expect(listed).toMatch(
      / crawl\.frontier +\d+:\d+ +ok\.test +fetcher +CODEC_BAD_HEADER +1 +no +not an Avro single-object message: 7 bytes starting 67617262\n/,
    );
    const [json] = (await dlq(['list', '--code', 'CODEC_INVALID_VALUE', '--json']))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    // The dead letter names its group as the broker does; the command shows its topic by its catalog name.
    expect(json).toMatchObject({
      topic: Topics.frontier,
      consumerGroup: `${prefix}fetcher`,
      key: 'buggy.test',
      headers: { 'trace-id': 'trace-buggy.test-2' },
      value: request('buggy.test', 2).value.toString('base64'),
    });

    fixed = true;
    const dry = await dlq(['replay', '--code', 'CODEC_INVALID_VALUE', '--dry-run']);
    expect(dry).toMatch(/\nwould replay 1 dead letter \(crawl\.frontier 1\)\n$/);
    const replayed = await dlq(['replay', '--code', 'CODEC_INVALID_VALUE']);
    console.info(`crawler dlq replay --code CODEC_INVALID_VALUE:\n${replayed}`);
    expect(replayed).toBe('replayed 1 dead letter (crawl.frontier 1)\n');
    await waitFor(() => handled.includes('http://buggy.test/2'), 30_000, 100);

    expect(await dlq(['replay', '--code', 'CODEC_INVALID_VALUE'])).toBe(
      'replayed 0 dead letters\n1 replayed before: skipped\n',
    );
    expect(await dlq(['list', '--code', 'CODEC_INVALID_VALUE'])).toMatch(/ CODEC_INVALID_VALUE +1 +yes /);
    expect(handled.filter((url) => url === 'http://buggy.test/2')).toHaveLength(1);
  }, 90_000);
});
