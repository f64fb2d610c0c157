import {
  BatchingProducer,
  Codec,
  loadCatalog,
  parseCrawlJob,
  silentLogger,
  Topics,
  type FrontierRequest,
  type LinkBase,
  type LinkRecord,
} from '@crawler/core';
import { makeLinkRecord, waitFor } from '@crawler/core/testing';
import { createElasticsearchLinkBase, loadElasticsearchConfig } from '@crawler/elasticsearch';
import { InProcessBus } from '@crawler/embedded';
import { Client } from '@elastic/elasticsearch';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSchedulerConfig } from './config.js';
import { FrontierEmitter } from './frontier-emitter.js';
import { JobRegistry } from './jobs/job-registry.js';
import { createSchedulerService } from './scheduler-service.js';

const URL_ES = process.env.ELASTICSEARCH_URL ?? 'http://127.0.0.1:19200';
const NOW = Date.UTC(2026, 0, 1);

/** Leases and starvation on the Elasticsearch link base, with the scheduler's own emitter and services. */
describe('scheduler on Elasticsearch: leases and starvation', () => {
  const index = `crawler-sched-lease-${randomUUID().slice(0, 12)}`;
  const codec = new Codec();
  let linkbase: LinkBase;
  const open = () =>
    createElasticsearchLinkBase(
      loadElasticsearchConfig({ env: {}, overrides: { url: URL_ES, index, refreshMinIntervalMs: 50 } }),
      silentLogger(),
    );

  beforeAll(async () => {
    linkbase = await open();
  });
  afterAll(async () => {
    await linkbase.close();
    const client = new Client({ node: URL_ES });
    for (const name of [index, `${index}-control`]) await client.indices.delete({ index: name }, { ignore: [404] });
    await client.indices.deleteIndexTemplate({ name: index }, { ignore: [404] });
    await client.close();
  });

  async function frontier() {
    const bus = new InProcessBus();
    await bus.createTopics(loadCatalog().topics);
    const sent: FrontierRequest[] = [];
    const probe = bus.consumer({ groupId: 'probe', topics: [Topics.frontier], fromBeginning: true });
    await probe.start({ onMessage: async (message) => void sent.push(codec.decode(message.value)) });
    return { bus, sent, close: async () => (await probe.stop(), await bus.close()) };
  }

  it('recovers URLs whose lease ran out when the process that handed them out is gone', async () => {
    const job = parseCrawlJob({ id: 'leases', seeds: ['http://a.lease.test/', 'http://b.lease.test/'] });
    const config = loadSchedulerConfig({ env: {}, overrides: { tickMs: 20, leaseMs: 60_000 } });
    const first = await frontier();
    let clock = NOW;
    const crashed = await createSchedulerService(
      config,
      job,
      { bus: first.bus, producer: new BatchingProducer(first.bus.producer()), codec, linkbase },
      silentLogger(),
      { now: () => clock },
    );
    await crashed.start();
    await waitFor(() => first.sent.length === 2);
    // The process dies with both URLs in flight: no status ever comes back for them.
    await crashed.stop();
    await first.close();
    const second = await frontier();
    clock = NOW + 30_000;
    const restarted = await createSchedulerService(
      config,
      job,
      { bus: second.bus, producer: new BatchingProducer(second.bus.producer()), codec, linkbase: await open() },
      silentLogger(),
      { now: () => clock },
    );
    await restarted.start();
    // negative window: leases still running must not be handed out again in it; holds however slow the machine.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(second.sent).toEqual([]);
    clock = NOW + 60_001;
    await waitFor(() => second.sent.length === 2, 10_000);
    expect(second.sent.map((request) => request.url).sort()).toEqual(job.seeds);
    const records = await linkbase.getMany(second.sent.map((request) => request.urlId));
    expect([...records.values()].map((record) => record.leaseExpiries)).toEqual([1, 1]);
    await restarted.stop();
    await second.close();
  });

  it('gives low levels and every traffic class their share of rounds, even behind a flood of top-level URLs', async () => {
    const records: LinkRecord[] = [];
    for (let i = 0; i < 600; i++)
      records.push(
        makeLinkRecord(`http://flood.starve.test/${i}`, { level: 0, depth: 1, rank: i / 600, nextFetchAt: NOW - 1000 }),
      );
    // Within the flooded host too, deeper low-level URLs get their turn (priority host order).
    for (let i = 0; i < 10; i++)
      records.push(
        makeLinkRecord(`http://flood.starve.test/deep/${i}`, { level: 3, depth: 6, nextFetchAt: NOW - 1000 }),
      );
    for (let h = 0; h < 10; h++)
      for (let i = 0; i < 5; i++)
        records.push(
          makeLinkRecord(`http://low${h}.starve.test/${i}`, { level: 3, depth: 1, nextFetchAt: NOW - 1000 }),
        );
    for (let i = 0; i < 30; i++)
      records.push(
        makeLinkRecord(`http://recheck.starve.test/${i}`, {
          level: 2,
          status: 'fetched',
          fetchCount: 1,
          trafficClass: 'update',
          nextFetchAt: NOW - 1000 - i,
        }),
      );
    await linkbase.insertNew(records);
    const { bus, sent, close } = await frontier();
    const emitter = new FrontierEmitter({
      linkbase,
      producer: bus.producer(),
      codec,
      jobs: new JobRegistry(parseCrawlJob({})),
      logger: silentLogger(),
      tickMs: 10,
      batchSize: 20,
      perHostPerRound: 20,
      maxInFlight: 1000,
      maxInFlightPerHost: 1000,
      leaseMs: 3_600_000,
      maxLeaseExpiries: 3,
      selection: {
        classShares: { discovery: 0.5, freshness: 0.3, update: 0.2 },
        levelWeights: [8, 4, 2, 1],
        hostOrder: 'priority',
      },
      now: () => NOW,
      random: (() => {
        let state = 11;
        return () => (state = (state * 48271) % 2147483647) / 2147483647;
      })(),
    });
    // Ten rounds of 20 URLs: 200 of 690 due. Levels weigh 8:1 and update gets 0.2/0.7 of the picks while it has work.
    for (let round = 0; round < 10; round++) await emitter.runRound();
    await waitFor(() => sent.length === 200);
    const low = sent.filter((request) => request.host.startsWith('low'));
    const updates = sent.filter((request) => request.trafficClass === 'update');
    expect(low.length).toBeGreaterThan(8);
    // Update traffic (0.2 of 0.7) has 30 due: a share of about 57 of 200 picks would take them all.
    expect(updates.length).toBe(30);
    const firstLow = sent.findIndex((request) => request.host.startsWith('low'));
    expect(firstLow).toBeLessThan(60);
    expect(sent.filter((request) => request.url.includes('/deep/')).length).toBeGreaterThan(1);
    await close();
  });
});
