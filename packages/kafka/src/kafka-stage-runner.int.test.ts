import { randomUUID } from 'node:crypto';
import {
  BatchingProducer,
  Codec,
  loadCatalog,
  prefixTopics,
  Schemas,
  silentLogger,
  StageRunner,
  Topics,
} from '@crawler/core';
import type { FrontierRequest, Stage, StatusUpdate } from '@crawler/core';
import { sampleMessages, waitFor } from '@crawler/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { createKafkaBus } from './kafka-bus.js';
import { loadKafkaConfig } from './kafka-settings.js';

const bus = createKafkaBus(
  loadKafkaConfig({ env: { KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '127.0.0.1:19092' } }),
  silentLogger(),
);
const codec = new Codec();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterAll(() => bus.close());

describe('StageRunner on Kafka', () => {
  it('processes every message while a second member joins and the first leaves, and commits to the end', async () => {
    // The topics and groups of a crawl of its own, as a service sees them.
    const crawl = prefixTopics(bus, `sr-${randomUUID().slice(0, 8)}.`);
    await crawl.createTopics(loadCatalog().topics);
    const stage: Stage<FrontierRequest> = {
      name: 'test',
      input: { topic: Topics.frontier, schema: Schemas.FrontierRequest },
      outputs: [Topics.status],
      handle: async (input) => {
        // simulated work: up to 10 ms per request, so work is in flight when members come and go.
        await sleep(Math.random() * 10);
        const value: StatusUpdate = {
          ...sampleMessages[Schemas.StatusUpdate],
          url: input.url,
          urlId: input.urlId,
          outcome: 'ok',
        };
        return [{ topic: Topics.status, schema: Schemas.StatusUpdate, key: input.queueKey, value }];
      },
    };
    const producer = new BatchingProducer(crawl.producer());
    const runner = () =>
      new StageRunner({
        stage,
        bus: crawl,
        codec,
        producer,
        groupId: 'stage',
        logger: silentLogger(),
        concurrency: 8,
        commitIntervalMs: 200,
      });
    const statuses = new Map<string, number>();
    const tap = crawl.consumer({ groupId: 'tap', topics: [Topics.status], fromBeginning: true });
    await tap.start({
      onMessage: async (message) => {
        const url = codec.decode<StatusUpdate>(message.value).url;
        statuses.set(url, (statuses.get(url) ?? 0) + 1);
      },
    });

    const total = 3000;
    const first = runner();
    await first.start();
    const sending = (async () => {
      for (let batch = 0; batch < 30; batch++) {
        await crawl.producer().send(
          Topics.frontier,
          Array.from({ length: total / 30 }, (_, i) => {
            const n = batch * (total / 30) + i;
            const value = codec.encode(Schemas.FrontierRequest, {
              ...sampleMessages[Schemas.FrontierRequest],
              url: `http://h${n % 40}.example.test/${n}`,
              queueKey: `h${n % 40}.example.test`,
            });
            return { key: `h${n % 40}.example.test`, value };
          }),
        );
        // simulated work: the requests arrive over about two seconds, while members join and leave.
        await sleep(60);
      }
    })();
    await waitFor(() => statuses.size > 0, 30_000, 20, 'the first member to hand out statuses');
    const second = runner();
    await second.start();
    await waitFor(
      async () => {
        const group = await crawl.describeGroup!('stage', [Topics.frontier]);
        return group.state === 'Stable' && group.members.length === 2;
      },
      60_000,
      100,
      'the second member to join the group',
    );
    await first.stop();
    await sending;
    await waitFor(() => statuses.size === total, 60_000);
    await waitFor(
      async () => (await crawl.lag('stage', [Topics.frontier])).every((partition) => partition.lag === 0),
      15_000,
    );
    await second.stop();
    await tap.stop();
    const duplicates = [...statuses.values()].reduce((sum, count) => sum + count - 1, 0);
    console.info(
      `StageRunner on Kafka: ${total} requests, ${statuses.size} distinct statuses, ${duplicates} duplicates (work in flight at a rebalance is redelivered)`,
    );
    expect(statuses.size).toBe(total);
  }, 120_000);
});
