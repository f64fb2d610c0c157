import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Client } from '@elastic/elasticsearch';
import {
  BatchingProducer,
  Codec,
  loadCatalog,
  silentLogger,
  Topics,
  type CrawlJob,
  type FrontierRequest,
  type LinkBase,
  type LinkRecord,
} from '@crawler/core';
import { createDedupService, loadDedupConfig } from '@crawler/dedup';
import { createElasticsearchLinkBase, deleteLinkBase, loadElasticsearchConfig } from '@crawler/elasticsearch';
import { InProcessBus, MemoryFingerprintStore, WarcPageStore } from '@crawler/embedded';
import { createFetcherService, loadFetcherConfig, OWN_SITE_BUDGET } from '@crawler/fetcher';
import { createLinkextractService, loadLinkextractConfig } from '@crawler/linkextract';
import { createSchedulerService, loadSchedulerConfig, type SchedulerService } from '@crawler/scheduler';

/** The local stack's Elasticsearch unless ELASTICSEARCH_URL says otherwise. */
const ELASTICSEARCH_URL = process.env.ELASTICSEARCH_URL ?? 'http://127.0.0.1:19200';
export const DAY = 86_400_000;

export interface StackCrawl {
  service: SchedulerService;
  linkbase: LinkBase;
  /** The scheduler's clock: virtual, so rounds of the test web can stand for days. */
  clock: { now: number };
  /** Every URL handed to the fetchers, in order. */
  handedOut: FrontierRequest[];
  /** Waits until nothing is due at the scheduler's clock (paused work aside), nothing in flight and no topic has lag. */
  settle(timeoutMs?: number): Promise<void>;
  records(): Promise<Map<string, LinkRecord>>;
  /** Stops everything and deletes the index by name. */
  close(): Promise<void>;
}

/**
 * The whole loop in this process against the test web, with the link base on Elasticsearch (a
 * fresh index, deleted at the end) and the scheduler on a virtual clock: the real fetcher
 * (robots.txt, politeness, conditional GET), link extraction and dedup (change decisions) on the
 * in-process bus, fingerprints in memory and pages in a temporary folder.
 */
export async function startStackCrawl(
  job: CrawlJob,
  options: {
    scheduler?: Record<string, unknown>;
    fetcher?: Record<string, unknown>;
    start?: number;
    beforeStart?: (service: SchedulerService) => Promise<void>;
  } = {},
): Promise<StackCrawl> {
  const logger = silentLogger();
  const index = `crawler-sched-test-${randomUUID().slice(0, 12)}`;
  const dir = mkdtempSync(join(tmpdir(), 'stack-crawl-'));
  const clock = { now: options.start ?? Date.UTC(2026, 0, 1) };
  const bus = new InProcessBus();
  await bus.createTopics(loadCatalog().topics);
  const codec = new Codec();
  const producer = new BatchingProducer(bus.producer(), { lingerMs: 0, maxBatchBytes: 1_000_000 });
  const linkbase = await createElasticsearchLinkBase(
    loadElasticsearchConfig({ env: {}, overrides: { url: ELASTICSEARCH_URL, index, refreshMinIntervalMs: 50 } }),
    logger,
  );
  const fingerprints = new MemoryFingerprintStore();
  const pages = await WarcPageStore.open(join(dir, 'warc'));
  const fetcherConfig = loadFetcherConfig({
    env: {},
    overrides: {
      allowAddresses: ['127.0.0.1'],
      minDelayMs: 0,
      ...OWN_SITE_BUDGET,
      delayFactor: 0,
      perHostConcurrency: 4,
      concurrency: 32,
      totalTimeoutMs: 2500,
      headersTimeoutMs: 2500,
      bodyTimeoutMs: 2000,
      ...options.fetcher,
    },
  });
  const fetcher = createFetcherService(fetcherConfig, job, { bus, producer, codec, state: fingerprints }, logger);
  const linkextract = createLinkextractService(
    loadLinkextractConfig({ env: {} }),
    job,
    { bus, producer, codec },
    logger,
  );
  const dedup = createDedupService(loadDedupConfig({ env: {} }), { bus, producer, codec, fingerprints, pages }, logger);
  const schedulerConfig = loadSchedulerConfig({
    env: {},
    overrides: { tickMs: 20, retryBaseMs: 60_000, ...options.scheduler },
  });
  const service = await createSchedulerService(schedulerConfig, job, { bus, producer, codec, linkbase }, logger, {
    now: () => clock.now,
    monitorCheckMs: 50,
  });
  const handedOut: FrontierRequest[] = [];
  const probe = bus.consumer({ groupId: 'test-probe', topics: [Topics.frontier], fromBeginning: true });
  await probe.start({ onMessage: async (message) => void handedOut.push(codec.decode(message.value)) });
  await Promise.all([dedup.start(), linkextract.start(), fetcher.start()]);
  await options.beforeStart?.(service);
  await service.start();

  const idle = async (): Promise<boolean> => {
    if (service.emitter.inFlightCount > 0 || fetcher.runner.busy + linkextract.runner.busy + dedup.runner.busy > 0)
      return false;
    const lags = await Promise.all(loadCatalog().consumerGroups.map((group) => bus.lag(group.group, group.topics)));
    if (!lags.flat().every((lag) => lag.lag === 0)) return false;
    return (
      (await linkbase.findDue({ now: clock.now, limit: 1, perQueueLimit: 1, exclude: service.control.exclude() }))
        .length === 0
    );
  };

  return {
    service,
    linkbase,
    clock,
    handedOut,
    async settle(timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      let quiet = 0;
      while (quiet < 2) {
        if (Date.now() > deadline) throw new Error(`the crawl did not settle within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 100));
        quiet = (await idle()) ? quiet + 1 : 0;
      }
    },
    async records() {
      await linkbase.flush();
      const out = new Map<string, LinkRecord>();
      for await (const record of linkbase.scan()) out.set(record.url, record);
      return out;
    },
    async close() {
      await service.emitter.stop();
      await probe.stop();
      await fetcher.stop();
      await linkextract.stop();
      await dedup.stop();
      await service.stop();
      await producer.flush();
      await linkbase.close();
      await pages.close();
      await fingerprints.close();
      await bus.close();
      rmSync(dir, { recursive: true, force: true });
      const client = new Client({ node: ELASTICSEARCH_URL });
      try {
        await deleteLinkBase(client, index);
      } finally {
        await client.close();
      }
    },
  };
}
