import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkAgainstTruth } from '@crawler/cli';
import {
  canonicalUrl,
  catalogGroups,
  prefixTopics,
  silentLogger,
  type Bus,
  type LinkBase,
  type LinkRecord,
  type PageStore,
  type FingerprintStore,
} from '@crawler/core';
import { waitFor } from '@crawler/core/testing';
import { jobScopeOf, scopedFingerprints } from '@crawler/dedup';
import { createElasticsearchLinkBase, loadElasticsearchConfig } from '@crawler/elasticsearch';
import { createHbasePageStore, loadHbaseConfig } from '@crawler/hbase';
import { createKafkaBus, loadKafkaConfig } from '@crawler/kafka';
import { createRedisFingerprintStore, loadRedisConfig } from '@crawler/redis';
import { startTestWeb, type TestWeb } from '@crawler/testweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDir, removeScratchDir } from '../support/scratch-dir.js';
import {
  describeFetcherGroup,
  startServiceProcess,
  waitForFetcherGroup,
  waitUntilReady,
  type ServiceProcess,
} from '../support/service-processes.js';
import { TEST_WEB_SERVICE_ENV } from '../support/test-web-service-env.js';

/**
 * The four services as separate OS processes (two fetchers) on the real stack crawl the test web;
 * the result is checked against its ground truth in Elasticsearch, HBase, Redis and Kafka.
 */
describe('distributed crawl on Kafka, Elasticsearch, HBase and Redis', () => {
  const run = randomUUID().slice(0, 8);
  const env: NodeJS.ProcessEnv = {
    KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '127.0.0.1:19092',
    ELASTICSEARCH_URL: process.env.ELASTICSEARCH_URL ?? 'http://127.0.0.1:19200',
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:16379',
    HBASE_ZOOKEEPER_QUORUM: process.env.HBASE_ZOOKEEPER_QUORUM ?? '127.0.0.1:12181',
    HBASE_REST_URL: process.env.HBASE_REST_URL ?? 'http://127.0.0.1:18080',
    CRAWLER_TOPIC_PREFIX: `e2e-${run}.`,
    ELASTICSEARCH_INDEX: `crawler-e2e-${run}`,
    HBASE_TABLE: `crawler_e2e_${run}`,
    REDIS_KEY_PREFIX: `crawler-e2e-${run}:`,
    ...TEST_WEB_SERVICE_ENV,
    LOG_LEVEL: 'info',
  };
  let web: TestWeb;
  let logDir: string;
  const services: ServiceProcess[] = [];
  let bus: Bus;
  let linkbase: LinkBase;
  let pages: PageStore;
  let fingerprints: FingerprintStore;

  beforeAll(async () => {
    web = await startTestWeb({ seed: 5 });
    logDir = createScratchDir('e2e-logs');
    const jobFile = join(logDir, 'job.json');
    writeFileSync(
      jobFile,
      JSON.stringify({ id: `e2e-${run}`, seeds: web.seeds, maxDepth: web.groundTruth().maxDepth }),
    );
    env.CRAWL_JOB_FILE = jobFile;
    // Consumers first, then the scheduler, as a deployment rolls out: the fetchers' group has
    // settled before the first URL is handed out, so no work is redone at a startup rebalance.
    for (const [service, name] of [
      ['dedup', 'dedup'],
      ['linkextract', 'linkextract'],
      ['fetcher', 'fetcher-1'],
      ['fetcher', 'fetcher-2'],
    ] as const) {
      services.push(await startServiceProcess(service, name, env, logDir));
    }
    await Promise.all(services.map((service) => waitUntilReady(service, Date.now() + 120_000)));
    const logger = silentLogger();
    bus = prefixTopics(createKafkaBus(loadKafkaConfig({ env }), logger), env.CRAWLER_TOPIC_PREFIX!);
    await waitForFetcherGroup(bus, 2);
    services.push(await startServiceProcess('scheduler', 'scheduler', env, logDir));
    linkbase = await createElasticsearchLinkBase(loadElasticsearchConfig({ env }), logger);
    pages = await createHbasePageStore(loadHbaseConfig({ env }), logger);
    fingerprints = createRedisFingerprintStore(loadRedisConfig({ env }), logger);
  });

  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop()));
    await Promise.all([bus?.close(), linkbase?.close(), pages?.close(), fingerprints?.close()]);
    await web?.close();
    removeScratchDir(logDir);
  });

  async function lagTotal(): Promise<number> {
    let total = 0;
    for (const group of catalogGroups()) {
      const lags = await bus.lag(group.group, group.topics);
      for (const lag of lags) total += Math.max(lag.lag, 0);
    }
    return total;
  }

  it('crawls the test web to completion and matches its ground truth', async () => {
    const deadline = Date.now() + 240_000;
    await waitUntilReady(services.at(-1)!, deadline);
    let quiet = 0;
    await waitFor(
      async () => {
        await linkbase.flush();
        const stats = await linkbase.stats(Date.now());
        const pending = (stats.byStatus.queued ?? 0) + (stats.byStatus.retry ?? 0);
        const idle = stats.total > 0 && pending === 0 && stats.leased === 0 && (await lagTotal()) === 0;
        quiet = idle ? quiet + 1 : 0;
        return quiet >= 3;
      },
      deadline - Date.now(),
      1000,
      () => `the crawl to finish (idle three checks running); scheduler log:\n${services.at(-1)!.logTail()}`,
    );

    const truth = web.groundTruth();
    const records = new Map<string, LinkRecord>();
    for await (const record of linkbase.scan()) records.set(record.url, record);
    const report = checkAgainstTruth(truth, web.requests, records);
    expect(report.missing).toEqual([]);
    expect(report.fetchedMoreThanOnce).toEqual([]);
    expect(report.disallowedRequested).toEqual([]);
    expect(report.exactDuplicateGroupsDetected).toBe(report.exactDuplicateGroups);
    expect(report.otherUrlsFetched).toEqual([]);
    expect(report.outcomes.wrong).toEqual([]);

    // Every fetched page is stored exactly once; duplicates are not stored; digests are in Redis.
    const digests: string[] = [];
    for (const url of new Set(truth.pages.map((page) => canonicalUrl(page)!))) {
      const record = records.get(url)!;
      const versions = await pages.get(url, { versions: 10 });
      if (record.status === 'duplicate') expect(versions, url).toHaveLength(0);
      else {
        expect(versions, url).toHaveLength(1);
        expect(versions[0]!.digest).toBe(record.digest);
        digests.push(record.digest!);
      }
    }
    // Dedup keeps each job's fingerprints apart (DEDUP_SHARED_JOBS unset).
    const registered = await scopedFingerprints(fingerprints, jobScopeOf(`e2e-${run}`, [])).get('digest', digests);
    expect(registered.every((value) => value !== null)).toBe(true);

    // Every URL the crawl discovered has a settled status; nothing is lost in between.
    for (const record of records.values())
      expect(['fetched', 'duplicate', 'redirect', 'gone', 'blocked', 'error'], record.url).toContain(record.status);
    expect(await lagTotal()).toBe(0);

    // The frontier's partitions were shared, and each fetcher did the work of the ones it owns: the
    // six hosts (random ports) all land in one fetcher's partitions in about one run in 32.
    const group = await describeFetcherGroup(bus);
    expect(group.members).toHaveLength(2);
    let processedTotal = 0;
    for (const service of [services[2]!, services[3]!]) {
      const member = group.members.find((candidate) => candidate.instance?.endsWith(`/${service.child.pid}`));
      expect(member?.partitions.length, service.name).toBeGreaterThan(0);
      const owned = new Set(member!.partitions.map((partition) => `${partition.topic}/${partition.partition}`));
      const frontierMessages = group.partitions
        .filter((progress) => owned.has(`${progress.topic}/${progress.partition}`))
        .reduce((sum, progress) => sum + progress.end, 0);
      const processed = Number((await service.health())?.processed);
      if (frontierMessages > 0) expect(processed, service.name).toBeGreaterThan(0);
      processedTotal += processed;
    }
    expect(processedTotal).toBeGreaterThan(0);
  });

  it('stops every service gracefully on SIGTERM with exit code 0', async () => {
    const codes = await Promise.all(services.map((service) => service.stop()));
    expect(codes).toEqual(services.map(() => 0));
  });
});
