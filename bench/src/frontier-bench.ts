import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@elastic/elasticsearch';
import {
  Codec,
  createLinkRecord,
  parseCrawlJob,
  silentLogger,
  type BusProducer,
  type LinkBase,
  type LinkRecord,
} from '@crawler/core';
import {
  createElasticsearchLinkBase,
  deleteLinkBase,
  loadElasticsearchConfig,
  queueIndexName,
  type ElasticsearchConfig,
} from '@crawler/elasticsearch';
import { FileLinkBase } from '@crawler/embedded';
import { discoveryPlan, FrontierEmitter, JobRegistry, loadSchedulerConfig } from '@crawler/scheduler';
import { cpuSecondsOf, pidListeningOn } from './proc-stats.js';
import { stackEnv } from './stack/stack-env.js';

/**
 * `node bench/dist/frontier-bench.js`: URLs the scheduler hands out per second with 10k, 100k and 1M
 * URLs on 1,000 hosts (or the `--hosts` given) in the link base, embedded and on Elasticsearch. The
 * real FrontierEmitter runs its rounds back to back (findDue, round selection, lease, Avro
 * encoding); every URL is answered at once and the frontier messages are dropped, so only the
 * scheduler and its link base are measured. Two link bases per size: all URLs due (a fresh crawl's
 * backlog) and a tenth due (the rest fetched, due in a month). Wall time on a loaded two-core
 * machine is noisy, so CPU seconds per 1,000 URLs (this process, and Elasticsearch's own process)
 * are printed beside it. Elasticsearch is filled with the bulk API (refresh off), its queue index
 * then built as for a link base written before it existed. `--baseline DIR` measures another
 * build of @crawler/elasticsearch (its dist folder) on the same filled index, for an A/B in one run.
 */
const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000,1000000' },
    hosts: { type: 'string', default: '1000' },
    baseline: { type: 'string' },
    repeat: { type: 'string', default: '1' },
    due: { type: 'string', default: '1,0.1' },
    modes: { type: 'string', default: 'embedded,elasticsearch' },
    seconds: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '40' },
    json: { type: 'boolean', default: false },
  },
});

const NOW = Date.UTC(2026, 0, 1);
/** Time between two measurements on one index: the leases of the one before (an hour) have run out. */
const MEASURE_STEP = 2 * 3_600_000;
/** Documents per bulk request of the fill, and requests in flight. */
const FILL_CHUNK = 5000;
const FILL_CONCURRENCY = 2;
const config = loadSchedulerConfig({ env: {} });
const dropped: BusProducer = { send: async () => undefined, close: async () => undefined };

interface Row {
  mode: string;
  hosts: number;
  size: number;
  dueShare: number;
  fillSeconds: number;
  /** Building the queue index from the filled link index (Elasticsearch). */
  queueBuildSeconds: number | null;
  handedOut: number;
  seconds: number;
  perSecond: number;
  cpuPer1000: number;
  storeCpuPer1000: number | null;
  /** Time Elasticsearch spent on this link base's indices alone (index stats), ms per 1,000 URLs. */
  indexMsPer1000: number | null;
}

/** The i-th URL: spread over `hosts` hosts, depths 0-5, due now or (if not in the due share) fetched and due in a month. */
function record(i: number, dueShare: number, hosts: number): LinkRecord {
  const due = (i % 1000) / 1000 < dueShare;
  const base = createLinkRecord(`http://h${i % hosts}.frontier.test/p/${Math.floor(i / hosts)}`, {
    jobId: 'bench',
    depth: i % 6,
    rank: ((i * 7919) % 10007) / 10007,
    discoveredAt: NOW - 1000,
  });
  if (due) return { ...base, ...discoveryPlan(base), nextFetchAt: NOW - 1000 };
  return {
    ...base,
    status: 'fetched',
    fetchCount: 1,
    lastFetchAt: NOW - 3_600_000,
    lastSeenAt: NOW - 3_600_000,
    trafficClass: 'update',
    level: 2,
    priority: 0.2,
    value: 0.4,
    nextFetchAt: NOW + 30 * 86_400_000,
  };
}

async function fill(linkbase: LinkBase, size: number, dueShare: number, hosts: number): Promise<number> {
  const started = performance.now();
  for (let from = 0; from < size; from += 10_000) {
    await linkbase.insertNew(
      Array.from({ length: Math.min(10_000, size - from) }, (_, i) => record(from + i, dueShare, hosts)),
    );
    await linkbase.flush();
  }
  return (performance.now() - started) / 1000;
}

/** Bulk-loads the link index directly, refresh off meanwhile: what a large link base looks like, fast. */
async function bulkFill(client: Client, index: string, size: number, dueShare: number, hosts: number): Promise<number> {
  const started = performance.now();
  await client.indices.putSettings({ index, settings: { refresh_interval: '-1' } });
  let next = 0;
  const worker = async () => {
    while (next < size) {
      const from = next;
      next = Math.min(size, next + FILL_CHUNK);
      const operations = [];
      for (let i = from; i < next; i++) {
        const doc = record(i, dueShare, hosts);
        operations.push({ create: { _id: doc.id } }, doc);
      }
      const response = await client.bulk({ index, operations });
      if (response.errors) throw new Error(`bulk fill of ${index} failed at ${from}`);
    }
  };
  await Promise.all(Array.from({ length: FILL_CONCURRENCY }, worker));
  await client.indices.putSettings({ index, settings: { refresh_interval: '1s' } });
  await client.indices.refresh({ index });
  return (performance.now() - started) / 1000;
}

type OpenLinkBase = (config: ElasticsearchConfig, logger: ReturnType<typeof silentLogger>) => Promise<LinkBase>;

/** The other build's createElasticsearchLinkBase, for `--baseline`. */
async function baselineOpener(dir: string): Promise<OpenLinkBase> {
  const module = (await import(pathToFileURL(join(resolve(dir), 'index.js')).href)) as {
    createElasticsearchLinkBase: OpenLinkBase;
  };
  return module.createElasticsearchLinkBase;
}

/**
 * Milliseconds Elasticsearch spent on these indices (query and fetch phases, gets, indexing,
 * refreshes), from index stats: the link base's own share of a cluster other tests use meanwhile.
 * Time in threads, so a loaded machine inflates it as it does CPU seconds.
 */
async function indexBusyMs(client: Client, indices: string[]): Promise<number> {
  const total = (await client.indices.stats({ index: indices, metric: ['search', 'get', 'indexing', 'refresh'] }))._all
    .total!;
  return (
    (total.search?.query_time_in_millis ?? 0) +
    (total.search?.fetch_time_in_millis ?? 0) +
    (total.get?.time_in_millis ?? 0) +
    (total.indexing?.index_time_in_millis ?? 0) +
    (total.refresh?.total_time_in_millis ?? 0)
  );
}

/** Rounds back to back until the time or round limit, or until nothing is due; answers every URL at once. */
async function measure(
  linkbase: LinkBase,
  storePid: number | null,
  now = NOW,
  indexTime: (() => Promise<number>) | null = null,
): Promise<Pick<Row, 'handedOut' | 'seconds' | 'perSecond' | 'cpuPer1000' | 'storeCpuPer1000' | 'indexMsPer1000'>> {
  const emitter: FrontierEmitter = new FrontierEmitter({
    linkbase,
    producer: dropped,
    codec: new Codec(),
    jobs: new JobRegistry(parseCrawlJob({ id: 'bench' })),
    logger: silentLogger(),
    tickMs: config.tickMs,
    batchSize: config.batchSize,
    perHostPerRound: config.perHostPerRound,
    maxInFlight: config.maxInFlight,
    maxInFlightPerHost: config.maxInFlightPerHost,
    leaseMs: 3_600_000,
    maxLeaseExpiries: config.maxLeaseExpiries,
    selection: { classShares: config.trafficShares, levelWeights: config.levelWeights, hostOrder: config.hostOrder },
    onHandedOut: (records) => {
      for (const handed of records) emitter.answered(handed.id);
    },
    now: () => now,
  });
  const indexBefore = indexTime ? await indexTime() : null;
  const cpu = process.cpuUsage();
  const storeCpu = storePid === null ? null : cpuSecondsOf(storePid);
  const started = performance.now();
  const deadline = started + Number(values.seconds) * 1000;
  for (let round = 0; round < Number(values.rounds) && performance.now() < deadline; round++) {
    const before = emitter.emitted;
    await emitter.runRound();
    if (emitter.emitted === before) break;
  }
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const handedOut = emitter.emitted;
  const storeSeconds = storePid === null || storeCpu === null ? null : (cpuSecondsOf(storePid) ?? storeCpu) - storeCpu;
  const indexMs = indexTime && indexBefore !== null ? (await indexTime()) - indexBefore : null;
  return {
    handedOut,
    seconds,
    perSecond: handedOut / seconds,
    cpuPer1000: ((used.user + used.system) / 1e6 / handedOut) * 1000,
    storeCpuPer1000: storeSeconds === null ? null : (storeSeconds / handedOut) * 1000,
    indexMsPer1000: indexMs === null ? null : (indexMs / handedOut) * 1000,
  };
}

const rows: Row[] = [];
const log = (line: string) => !values.json && process.stderr.write(`${line}\n`);
const rowLine = (row: Row) =>
  `${row.mode}: ${row.handedOut} handed out, ${Math.round(row.perSecond)} URLs/s, ${row.cpuPer1000.toFixed(3)} CPU s / 1,000 here${row.storeCpuPer1000 === null ? '' : `, ${row.storeCpuPer1000.toFixed(3)} in Elasticsearch`}${row.indexMsPer1000 === null ? '' : `, ${Math.round(row.indexMsPer1000)} ms / 1,000 on its indices`}`;

/** Compiles the hot paths before the first measured size, so it is not charged for the JIT. */
async function warmUp(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'frontier-bench-'));
  const linkbase = await FileLinkBase.open(dir);
  await fill(linkbase, 20_000, 1, 1000);
  await measure(linkbase, null);
  await linkbase.close();
  rmSync(dir, { recursive: true, force: true });
}

/** Fills an embedded link base, measures it, removes it. */
async function embeddedRow(hosts: number, size: number, dueShare: number): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'frontier-bench-'));
  const linkbase = await FileLinkBase.open(dir);
  try {
    log(`embedded: filling ${size} URLs on ${hosts} hosts (${dueShare * 100}% due)...`);
    const fillSeconds = await fill(linkbase, size, dueShare, hosts);
    const row: Row = {
      mode: 'embedded',
      hosts,
      size,
      dueShare,
      fillSeconds,
      queueBuildSeconds: null,
      ...(await measure(linkbase, null)),
    };
    log(`  ${rowLine(row)}`);
    return [row];
  } finally {
    await linkbase.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Bulk-fills a fresh index, builds its queue index, measures this build (and the baseline's after
 * it, `--repeat` times in turn, each at a later `now`), deletes it.
 */
async function elasticsearchRows(
  hosts: number,
  size: number,
  dueShare: number,
  baseline?: OpenLinkBase,
): Promise<Row[]> {
  const url = stackEnv().ELASTICSEARCH_URL || 'http://127.0.0.1:19200';
  const config = loadElasticsearchConfig({
    env: {},
    overrides: { url, index: `crawler-frontier-bench-${randomUUID().slice(0, 8)}` },
  });
  const client = new Client({ node: url, requestTimeout: 300_000 });
  const storePid = pidListeningOn(Number(new URL(url).port || 9200));
  const indexTime = () => indexBusyMs(client, [config.index, queueIndexName(config.index)]);
  const measured: Row[] = [];
  try {
    await (await createElasticsearchLinkBase(config, silentLogger())).close();
    log(`elasticsearch: bulk-loading ${size} URLs on ${hosts} hosts (${dueShare * 100}% due)...`);
    const fillSeconds = await bulkFill(client, config.index, size, dueShare, hosts);
    // Opened on a link index without a queue index, the link base builds it from the URLs.
    await client.indices.delete({ index: queueIndexName(config.index) });
    const started = performance.now();
    const linkbase = await createElasticsearchLinkBase(config, silentLogger());
    const queueBuildSeconds = (performance.now() - started) / 1000;
    log(`  filled in ${fillSeconds.toFixed(0)} s, queue index built in ${queueBuildSeconds.toFixed(1)} s`);
    await linkbase.close();
    // Alternated, so a change in the machine's load meanwhile falls on both builds.
    let at = NOW;
    for (let round = 0; round < Number(values.repeat); round++) {
      for (const [mode, open] of [
        ['elasticsearch', createElasticsearchLinkBase],
        ...(baseline ? [['elasticsearch (baseline)', baseline] as const] : []),
      ] as const) {
        const linkbase = await open(config, silentLogger());
        try {
          measured.push({
            mode,
            hosts,
            size,
            dueShare,
            fillSeconds,
            queueBuildSeconds: mode === 'elasticsearch' ? queueBuildSeconds : null,
            ...(await measure(linkbase, storePid, at, indexTime)),
          });
          log(`  ${rowLine(measured.at(-1)!)}`);
        } finally {
          await linkbase.close();
        }
        at += MEASURE_STEP;
      }
    }
    return measured;
  } finally {
    await deleteLinkBase(client, config.index);
    await client.close();
  }
}

await warmUp();
const baseline = values.baseline === undefined ? undefined : await baselineOpener(values.baseline);
for (const mode of values.modes.split(',')) {
  for (const hosts of values.hosts.split(',').map(Number)) {
    for (const size of values.sizes.split(',').map(Number)) {
      for (const dueShare of values.due.split(',').map(Number)) {
        const measured =
          mode === 'embedded'
            ? await embeddedRow(hosts, size, dueShare)
            : await elasticsearchRows(hosts, size, dueShare, baseline);
        rows.push(...measured);
      }
    }
  }
}

if (values.json) process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
else {
  process.stdout.write(
    '| link base | hosts | URLs | due | handed out | URLs/s (wall) | CPU s / 1,000 URLs (scheduler) | CPU s / 1,000 URLs (Elasticsearch) | Elasticsearch ms / 1,000 URLs on its indices |\n|---|---|---|---|---|---|---|---|---|\n',
  );
  for (const row of rows) {
    process.stdout.write(
      `| ${row.mode} | ${row.hosts.toLocaleString('en')} | ${row.size.toLocaleString('en')} | ${row.dueShare * 100}% | ${row.handedOut} | ${Math.round(row.perSecond).toLocaleString('en')} | ${row.cpuPer1000.toFixed(3)} | ${row.storeCpuPer1000 === null ? '-' : row.storeCpuPer1000.toFixed(3)} | ${row.indexMsPer1000 === null ? '-' : Math.round(row.indexMsPer1000)} |\n`,
    );
  }
}
