import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  catalogGroups,
  prefixTopics,
  silentLogger,
  urlId,
  type Bus,
  type LinkBase,
  type PageStore,
} from '@crawler/core';
import { waitFor } from '@crawler/core/testing';
import { createElasticsearchLinkBase, loadElasticsearchConfig } from '@crawler/elasticsearch';
import { createHbasePageStore, loadHbaseConfig } from '@crawler/hbase';
import { createKafkaBus, loadKafkaConfig } from '@crawler/kafka';
import { startTestWeb, type TestWeb } from '@crawler/testweb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../packages/cli/src/cli.js';
import {
  startServiceProcess,
  waitForFetcherGroup,
  waitUntilReady,
  type ServiceProcess,
} from '../support/service-processes.js';
import { documentedMetrics } from './doc-code-blocks.js';
import { startPrometheus, type PrometheusProcess } from './prometheus-process.js';
import { TEST_WEB_SERVICE_ENV } from '../support/test-web-service-env.js';

const dashboardFile = fileURLToPath(new URL('../../deploy/grafana/crawler-dashboard.json', import.meta.url));

/**
 * The four services as processes on the local stack, scraped by Debian's prometheus with
 * deploy/prometheus as it is: lag and throughput queried from Prometheus, every dashboard query
 * run, the metric names checked against docs/OPERATIONS.md, one page followed by its trace id,
 * no secret in logs or metrics, and the operators' commands on the same crawl.
 */
describe('operating a distributed crawl', () => {
  const run = randomUUID().slice(0, 8);
  const secrets = {
    elasticsearch: `es-secret-${randomUUID()}`,
    redis: `redis-secret-${randomUUID()}`,
    hbase: `hbase-secret-${randomUUID()}`,
  };
  const redisUrl = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:16379');
  const hbaseUrl = new URL(process.env.HBASE_REST_URL ?? 'http://127.0.0.1:18080');
  const env: Record<string, string> = {
    KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '127.0.0.1:19092',
    ELASTICSEARCH_URL: process.env.ELASTICSEARCH_URL ?? 'http://127.0.0.1:19200',
    // The local stack needs no credentials and ignores these; they are here to be kept out of logs.
    ELASTICSEARCH_USERNAME: 'operator',
    ELASTICSEARCH_PASSWORD: secrets.elasticsearch,
    REDIS_URL: `redis://:${secrets.redis}@${redisUrl.host}`,
    HBASE_REST_URL: `http://operator:${secrets.hbase}@${hbaseUrl.host}`,
    HBASE_ZOOKEEPER_QUORUM: process.env.HBASE_ZOOKEEPER_QUORUM ?? '127.0.0.1:12181',
    CRAWLER_TOPIC_PREFIX: `ops-${run}.`,
    ELASTICSEARCH_INDEX: `crawler-ops-${run}`,
    HBASE_TABLE: `crawler_ops_${run}`,
    REDIS_KEY_PREFIX: `crawler-ops-${run}:`,
    ...TEST_WEB_SERVICE_ENV,
    LOG_LEVEL: 'debug',
  };
  const prefix = env.CRAWLER_TOPIC_PREFIX!;
  let web: TestWeb;
  let prometheus: PrometheusProcess;
  const services: ServiceProcess[] = [];
  let bus: Bus;
  let linkbase: LinkBase;
  let pages: PageStore;

  beforeAll(async () => {
    web = await startTestWeb({ seed: 5 });
    const logDir = mkdtempSync(join(tmpdir(), 'ops-logs-'));
    const jobFile = join(logDir, 'job.json');
    writeFileSync(
      jobFile,
      JSON.stringify({ id: `ops-${run}`, seeds: web.seeds, maxDepth: web.groundTruth().maxDepth }),
    );
    env.CRAWL_JOB_FILE = jobFile;
    for (const [service, name] of [
      ['dedup', 'dedup'],
      ['linkextract', 'linkextract'],
      ['fetcher', 'fetcher-1'],
      ['fetcher', 'fetcher-2'],
    ] as const) {
      services.push(await startServiceProcess(service, name, env, logDir));
    }
    await Promise.all(services.map((service) => waitUntilReady(service)));
    bus = prefixTopics(createKafkaBus(loadKafkaConfig({ env }), silentLogger()), prefix);
    await waitForFetcherGroup(bus, 2);
    services.push(await startServiceProcess('scheduler', 'scheduler', env, logDir));
    await waitUntilReady(services.at(-1)!);
    prometheus = await startPrometheus(services.map((service) => `127.0.0.1:${service.healthPort}`));
    linkbase = await createElasticsearchLinkBase(loadElasticsearchConfig({ env }), silentLogger());
    pages = await createHbasePageStore(loadHbaseConfig({ env }), silentLogger());
  });

  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop()));
    await prometheus?.stop();
    await Promise.all([bus?.close(), linkbase?.close(), pages?.close()]);
    await web?.close();
    await fetch(`${env.ELASTICSEARCH_URL}/${env.ELASTICSEARCH_INDEX}`, { method: 'DELETE' }).catch(() => undefined);
  });

  /** A crawler command in this process, with the crawl's settings, and what it printed. */
  async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
    const out: string[] = [];
    const err: string[] = [];
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => out.push(String(chunk)) > 0);
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => err.push(String(chunk)) > 0);
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
    try {
      return { code: await runCli(args), out: out.join(''), err: err.join('') };
    } finally {
      stdout.mockRestore();
      stderr.mockRestore();
      vi.unstubAllEnvs();
    }
  }

  const metricsTexts = () =>
    Promise.all(
      services.map(async (service) => (await fetch(`http://127.0.0.1:${service.healthPort}/metrics`)).text()),
    );
  const logLines = () =>
    services.flatMap((service) => readFileSync(service.logFile, 'utf8').split('\n').filter(Boolean));

  async function crawlIdle(): Promise<boolean> {
    await linkbase.flush();
    const stats = await linkbase.stats(Date.now());
    const pending = (stats.byStatus.queued ?? 0) + (stats.byStatus.retry ?? 0);
    if (stats.total === 0 || pending > 0 || stats.leased > 0) return false;
    for (const group of catalogGroups())
      if ((await bus.lag(group.group, group.topics)).some((entry) => entry.lag > 0)) return false;
    return true;
  }

  it('Prometheus scrapes every service and answers throughput, lag and worker queries', async () => {
    await waitFor(
      async () => (await prometheus.query('up{job="crawler"} == 1')).length === services.length,
      30_000,
      500,
    );
    const produced = await waitFor(
      async () => {
        const [sample] = await prometheus.query('sum(rate(crawler_messages_produced_total[10s]))');
        return sample && sample.value > 0 ? sample.value : null;
      },
      60_000,
      500,
    );
    expect(produced).toBeGreaterThan(0);
    await waitFor(
      async () => (await prometheus.query('sum(increase(crawler_fetch_outcomes_total{class="ok"}[1m]))'))[0]!.value > 0,
      60_000,
      500,
    );

    const lag = await prometheus.query('sum by (group) (max by (group, topic, partition) (crawler_consumer_lag))');
    expect(lag.map((sample) => sample.metric.group).sort()).toEqual(
      catalogGroups()
        .map((group) => prefix + group.group)
        .sort(),
    );
    const fetchers = await prometheus.query(
      `max by (group, worker) (crawler_worker_partitions{group="${prefix}fetcher"})`,
    );
    expect(fetchers).toHaveLength(2);
    expect(fetchers.reduce((sum, sample) => sum + sample.value, 0)).toBe(12);
    expect(new Set(fetchers.map((sample) => sample.metric.worker)).size).toBe(2);
    const [stalled] = await prometheus.query('sum(max by (group, worker) (crawler_worker_stalled))');
    expect(stalled!.value).toBe(0);
  }, 120_000);

  it('runs the crawl to the end, and Prometheus, crawler lag and crawler status then agree on every group', async () => {
    let quiet = 0;
    await waitFor(
      async () => {
        quiet = (await crawlIdle()) ? quiet + 1 : 0;
        return quiet >= 3;
      },
      200_000,
      1000,
      () => `the crawl to finish (idle three checks running); scheduler log:\n${services.at(-1)!.logTail()}`,
    );
    const lag = await cli(['lag', '--json']);
    expect(lag.code).toBe(0);
    const groups = (
      JSON.parse(lag.out) as {
        groups: { group: string; lag: number; partitions: { topic: string; partition: number; committed: number }[] }[];
      }
    ).groups;
    expect(groups.map((group) => group.lag)).toEqual(groups.map(() => 0));
    const fromCli = new Map(
      groups.flatMap((group) =>
        group.partitions.map((entry) => [`${group.group} ${entry.topic} ${entry.partition}`, entry.committed]),
      ),
    );
    // Services cache group reads for 5 s and Prometheus scrapes every second.
    await waitFor(
      async () => {
        const fromPrometheus = await prometheus.query(
          'max by (group, topic, partition) (crawler_consumer_committed_offset)',
        );
        return (
          fromPrometheus.length === fromCli.size &&
          fromPrometheus.every(
            (sample) =>
              fromCli.get(`${sample.metric.group} ${sample.metric.topic} ${sample.metric.partition}`) === sample.value,
          )
        );
      },
      30_000,
      1000,
    );

    const status = await cli(['status', '--once', '--json']);
    expect(status.code).toBe(0);
    const snapshot = JSON.parse(status.out) as {
      linkbase: { known: number; leased: number };
      groups: { group: string; lag: number; members: number }[];
      workers: { groupId: string; state: string; partitions: unknown[] }[];
    };
    expect(snapshot.linkbase.known).toBe((await linkbase.stats(Date.now())).total);
    expect(snapshot.linkbase.leased).toBe(0);
    expect(snapshot.groups.find((group) => group.group === `${prefix}fetcher`)).toMatchObject({ members: 2, lag: 0 });
    const fetchers = snapshot.workers.filter((worker) => worker.groupId === `${prefix}fetcher`);
    expect(fetchers.map((worker) => worker.state)).toEqual(['idle', 'idle']);
    expect(fetchers.reduce((sum, worker) => sum + worker.partitions.length, 0)).toBe(12);
  }, 240_000);

  it('runs every query of the Grafana dashboard, on metrics the services export, and loads the alert rules', async () => {
    const dashboard = JSON.parse(readFileSync(dashboardFile, 'utf8')) as {
      panels: { title: string; targets?: { expr: string }[] }[];
    };
    const exported = new Set(
      (await metricsTexts()).flatMap((text) => [...text.matchAll(/^# TYPE (\S+)/gm)].map((match) => match[1]!)),
    );
    const expressions = dashboard.panels.flatMap((panel) =>
      (panel.targets ?? []).map((target) => ({
        panel: panel.title,
        expr: target.expr.replaceAll('$__rate_interval', '1m'),
      })),
    );
    expect(expressions.length).toBeGreaterThan(25);
    for (const { panel, expr } of expressions) {
      expect(await prometheus.queryStatus(expr), `${panel}: ${expr}`).toEqual({ status: 'success' });
      for (const [name] of expr.matchAll(/crawler_[a-z0-9_]+/g))
        expect(exported, `${panel} uses ${name}`).toContain(name.replace(/_bucket$/, ''));
    }
    for (const title of ['Pages per second', 'Consumer lag by group', 'Messages produced by topic', 'Link base URLs']) {
      const panel = dashboard.panels.find((entry) => entry.title === title)!;
      expect(
        (await prometheus.query(panel.targets![0]!.expr.replaceAll('$__rate_interval', '5m'))).length,
        title,
      ).toBeGreaterThan(0);
    }
    const rules = (await (await fetch(`${prometheus.url}/api/v1/rules`)).json()) as {
      data: { groups: { rules: { name: string; health: string }[] }[] };
    };
    const loaded = rules.data.groups.flatMap((group) => group.rules);
    expect(loaded.map((rule) => rule.name)).toEqual(
      expect.arrayContaining([
        'CrawlerServiceDown',
        'CrawlerWorkerStalled',
        'CrawlerGroupWithoutWorkers',
        'CrawlerLagGrowing',
        'CrawlerDeadLetters',
        'CrawlerStoreErrors',
        'CrawlerBlockedBySite',
      ]),
    );
    expect(loaded.every((rule) => rule.health === 'ok')).toBe(true);
  });

  it('lists every metric family the services export in docs/OPERATIONS.md', async () => {
    const documented = documentedMetrics();
    const families = new Set(
      (await metricsTexts()).flatMap((text) => [...text.matchAll(/^# TYPE (\S+)/gm)].map((match) => match[1]!)),
    );
    // prom-client's process metrics are documented as a group.
    const ours = [...families].filter((name) => !/^crawler_(process|nodejs)_/.test(name));
    expect(ours.length).toBeGreaterThan(30);
    expect(ours.filter((name) => !documented.has(name))).toEqual([]);
  });

  it('follows one page by its trace id from the scheduler through every stage to the page store', async () => {
    const tapped = await cli(['tap', 'crawl.pages', '--from', 'beginning', '--max', '1']);
    expect(tapped.code).toBe(0);
    const page = JSON.parse(tapped.out) as { headers: Record<string, string>; value: { url: string; traceId: string } };
    const traceId = page.headers['trace-id']!;
    expect(page.value.traceId).toBe(traceId);

    const frontier = await cli([
      'tap',
      'crawl.frontier',
      '--from',
      'beginning',
      '--filter',
      `traceId=${traceId}`,
      '--max',
      '1',
    ]);
    expect(JSON.parse(frontier.out)).toMatchObject({
      headers: { 'trace-id': traceId },
      value: { url: page.value.url },
    });
    const stored = await pages.get(page.value.url, { versions: 10 });
    expect(stored.map((version) => version.traceId)).toContain(traceId);

    const traced = logLines()
      .filter((line) => line.includes(traceId))
      .map((line) => JSON.parse(line) as { service: string; msg: string; url?: string; traceId: string });
    expect(new Set(traced.map((line) => line.service))).toEqual(
      new Set(['scheduler', 'fetcher', 'linkextract', 'dedup']),
    );
    expect(traced.every((line) => line.traceId === traceId)).toBe(true);
    expect(traced.filter((line) => line.msg === 'message handled').map((line) => line.url)).toContain(page.value.url);
  });

  it('writes no secret to any log line or metric', async () => {
    const lines = logLines();
    expect(lines.length).toBeGreaterThan(100);
    const metrics = (await metricsTexts()).join('\n');
    for (const secret of Object.values(secrets)) {
      expect(lines.filter((line) => line.includes(secret))).toEqual([]);
      expect(metrics).not.toContain(secret);
    }
  });

  it('lists failed URLs from the link base with their cause, and --requeue makes them due again', async () => {
    const listed = await cli(['errors', '--class', 'gone', '--json']);
    expect(listed.err).toBe('');
    expect(listed.code).toBe(0);
    const gone = listed.out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { url: string; status: string; httpStatus: number; lastFetchAt: string });
    expect(gone.length).toBeGreaterThan(0);
    expect(gone.every((entry) => entry.status === 'gone' && [404, 410].includes(entry.httpStatus))).toBe(true);
    const requeuedAt = Date.now();
    const requeued = await cli(['errors', '--class', 'gone', '--requeue']);
    expect(requeued.err).toContain(`requeued ${gone.length} URL`);
    // The scheduler hands them out again; each is fetched and gone once more.
    await waitFor(
      async () => {
        const records = await linkbase.getMany(gone.map((entry) => urlId(entry.url)));
        return [...records.values()].every(
          (record) => record.status === 'gone' && (record.lastFetchAt ?? 0) >= requeuedAt,
        );
      },
      60_000,
      500,
    );
  }, 90_000);

  it('stops every service gracefully with exit code 0', async () => {
    expect(await Promise.all(services.map((service) => service.stop()))).toEqual(services.map(() => 0));
  });
});
