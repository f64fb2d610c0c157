import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { catalogGroups, prefixTopics, silentLogger, type Bus, type LinkBase } from '@crawler/core';
import { waitFor } from '@crawler/core/testing';
import { createElasticsearchLinkBase, loadElasticsearchConfig } from '@crawler/elasticsearch';
import { createKafkaBus, loadKafkaConfig } from '@crawler/kafka';
import { startTestWeb, type TestWeb } from '@crawler/testweb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { footprintCommand } from '../../packages/cli/src/commands/footprint.js';
import type { summarizeFootprint } from '../../packages/cli/src/ops/footprint-report.js';
import { createScratchDir, removeScratchDir } from '../support/scratch-dir.js';
import {
  describeFetcherGroup,
  startServiceProcess,
  waitForFetcherGroup,
  waitUntilReady,
  type ServiceProcess,
} from '../support/service-processes.js';
import { TEST_WEB_SERVICE_ENV } from '../support/test-web-service-env.js';

const DELAY_MS = 300;
/** Timer and scheduling jitter between a fetcher's slot and the server's clock, on a loaded two-core machine. */
const TOLERANCE_MS = 120;

/**
 * Politeness by registrable domain across fetcher processes. The test web's hosts all live on
 * 127.0.0.1 (one registrable domain and one address), while the frontier is keyed by host, so
 * with FETCHER_QUEUE_MODE=domain every fetcher that owns one of the hosts holds a queue for the
 * same domain. The server's own request log must show the domain's delay between every two
 * requests, while a third fetcher joins and the first one leaves (two rebalances).
 */
describe('politeness by domain across fetcher processes, through rebalances', () => {
  const run = randomUUID().slice(0, 8);
  const env: NodeJS.ProcessEnv = {
    KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '127.0.0.1:19092',
    ELASTICSEARCH_URL: process.env.ELASTICSEARCH_URL ?? 'http://127.0.0.1:19200',
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:16379',
    HBASE_ZOOKEEPER_QUORUM: process.env.HBASE_ZOOKEEPER_QUORUM ?? '127.0.0.1:12181',
    HBASE_REST_URL: process.env.HBASE_REST_URL ?? 'http://127.0.0.1:18080',
    CRAWLER_TOPIC_PREFIX: `polite-${run}.`,
    ELASTICSEARCH_INDEX: `crawler-polite-${run}`,
    HBASE_TABLE: `crawler_polite_${run}`,
    REDIS_KEY_PREFIX: `crawler-polite-${run}:`,
    ...TEST_WEB_SERVICE_ENV,
    FETCHER_QUEUE_MODE: 'domain',
    FETCHER_MIN_DELAY_MS: String(DELAY_MS),
    FETCHER_DELAY_FACTOR: '0',
    FETCHER_PER_HOST_CONCURRENCY: '1',
    LOG_LEVEL: 'info',
  };
  let web: TestWeb;
  let logDir: string;
  const services: ServiceProcess[] = [];
  let bus: Bus;
  let linkbase: LinkBase;

  const pageRequests = () => web.requests.entries().filter((entry) => !entry.url.endsWith('/robots.txt'));

  beforeAll(async () => {
    // 96 pages, 300 ms apart: the crawl outlasts the rebalances below however slow a fetcher's stop is.
    web = await startTestWeb({ profile: 'bench', hosts: 4, pagesPerHost: 24, linksPerPage: 4, pageBytes: 1500 });
    logDir = createScratchDir('polite-logs');
    const jobFile = join(logDir, 'job.json');
    writeFileSync(jobFile, JSON.stringify({ id: `polite-${run}`, seeds: web.seeds }));
    env.CRAWL_JOB_FILE = jobFile;
    for (const [service, name] of [
      ['dedup', 'dedup'],
      ['linkextract', 'linkextract'],
      ['fetcher', 'fetcher-1'],
      ['fetcher', 'fetcher-2'],
    ] as const)
      services.push(await startServiceProcess(service, name, env, logDir));
    await Promise.all(services.map((service) => waitUntilReady(service, Date.now() + 120_000)));
    bus = prefixTopics(createKafkaBus(loadKafkaConfig({ env }), silentLogger()), env.CRAWLER_TOPIC_PREFIX!);
    await waitForFetcherGroup(bus, 2);
    linkbase = await createElasticsearchLinkBase(loadElasticsearchConfig({ env }), silentLogger());
  });

  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop()));
    await Promise.all([bus?.close(), linkbase?.close()]);
    await web?.close();
    removeScratchDir(logDir);
  });

  /** `crawler footprint --json` with the crawl's settings: what the fetchers counted in Redis. */
  async function footprint(): Promise<ReturnType<typeof summarizeFootprint>> {
    const out: string[] = [];
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => out.push(String(chunk)) > 0);
    try {
      expect(await footprintCommand(['--json'], env)).toBe(0);
    } finally {
      stdout.mockRestore();
    }
    return JSON.parse(out.join('')) as ReturnType<typeof summarizeFootprint>;
  }

  async function crawlSettled(): Promise<boolean> {
    await linkbase.flush();
    const stats = await linkbase.stats(Date.now());
    if (stats.total === 0 || (stats.byStatus.queued ?? 0) + (stats.byStatus.retry ?? 0) > 0 || stats.leased > 0)
      return false;
    for (const group of catalogGroups())
      for (const lag of await bus.lag(group.group, group.topics)) if (lag.lag > 0) return false;
    return true;
  }

  it('keeps the domain’s delay between every two requests the site receives', { timeout: 360_000 }, async () => {
    const scheduler = await startServiceProcess('scheduler', 'scheduler', env, logDir);
    services.push(scheduler);
    await waitUntilReady(scheduler);
    const pages = web.groundTruth().pages.length;

    // A third fetcher joins while the crawl runs: the frontier's partitions move.
    await waitFor(() => pageRequests().length >= 12, 90_000, 200, 'the crawl to start');
    const third = await startServiceProcess('fetcher', 'fetcher-3', env, logDir);
    services.push(third);
    await waitUntilReady(third);
    await waitForFetcherGroup(bus, 3);
    const joinedAt = performance.timeOrigin + performance.now();
    // Then the first one leaves: its partitions move again.
    await waitFor(() => pageRequests().length >= 24, 90_000, 200, 'more of the crawl');
    expect(await services[2]!.stop()).toBe(0);
    const leftAt = performance.timeOrigin + performance.now();

    let quiet = 0;
    await waitFor(
      async () => {
        quiet = (await crawlSettled()) ? quiet + 1 : 0;
        return quiet >= 3;
      },
      180_000,
      200,
      'the crawl to finish',
    );

    const requests = pageRequests();
    expect(requests.length).toBeGreaterThanOrEqual(pages);
    const times = requests.map((entry) => entry.at).sort((a, b) => a - b);
    const gaps = times.slice(1).map((at, i) => Math.round(at - times[i]!));
    const tooClose = gaps.filter((gap) => gap < DELAY_MS - TOLERANCE_MS);
    expect(tooClose, `gaps between requests to the domain (ms): ${gaps.join(' ')}`).toEqual([]);
    // Requests reached the site after each rebalance, from the fetcher that joined too.
    expect(times.some((at) => at > joinedAt)).toBe(true);
    expect(times.some((at) => at > leftAt)).toBe(true);
    const group = await describeFetcherGroup(bus);
    const joined = group.members.find((member) => member.instance?.endsWith(`/${third.child.pid}`));
    expect(joined?.partitions.length).toBeGreaterThan(0);
    expect(Number((await third.health())?.processed)).toBeGreaterThan(0);

    // The fetchers' own count, read by `crawler footprint --json`, matches the site's log: every
    // page request from our /24, none of a host's two closer than the domain's delay.
    const report = await footprint();
    expect(report.networks).toEqual([
      { network: '127.0.0.0/24', sites: 4, requests: expect.any(Number), pages: expect.any(Number), attachments: 0 },
    ]);
    expect(report.networks[0]!.pages).toBeGreaterThanOrEqual(requests.length);
    expect(report.sites.map((site) => site.site).sort()).toEqual(
      web.hosts.map((host) => new URL(host.origin).host).sort(),
    );
    for (const site of report.sites) expect(site.minIntervalMs!).toBeGreaterThanOrEqual(DELAY_MS);
  });
});
