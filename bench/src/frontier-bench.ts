import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
import { createElasticsearchLinkBase, loadElasticsearchConfig } from '@crawler/elasticsearch';
import { FileLinkBase } from '@crawler/embedded';
import { discoveryPlan, FrontierEmitter, JobRegistry, loadSchedulerConfig } from '@crawler/scheduler';
import { cpuSecondsOf } from './proc-stats.js';
import { repoRoot, stackEnv } from './stack/stack-env.js';

/**
 * `node bench/dist/frontier-bench.js`: URLs the scheduler hands out per second with 10k, 100k and 1M
 * URLs in the link base, embedded and on Elasticsearch. The real FrontierEmitter runs its rounds
 * back to back (findDue, round selection, lease, Avro encoding); every URL is answered at once and
 * the frontier messages are dropped, so only the scheduler and its link base are measured. Two
 * link bases per size: all URLs due (a fresh crawl's backlog) and a tenth due (the rest fetched,
 * due in a month). Wall time on a loaded two-core machine is noisy, so CPU seconds per 1,000 URLs
 * (this process, and Elasticsearch's own process) are printed beside it.
 */
const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000,1000000' },
    hosts: { type: 'string', default: '1000' },
    due: { type: 'string', default: '1,0.1' },
    modes: { type: 'string', default: 'embedded,elasticsearch' },
    seconds: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '40' },
    json: { type: 'boolean', default: false },
  },
});

const NOW = Date.UTC(2026, 0, 1);
const hosts = Number(values.hosts);
const config = loadSchedulerConfig({ env: {} });
const dropped: BusProducer = { send: async () => undefined, close: async () => undefined };

interface Row {
  mode: string;
  size: number;
  dueShare: number;
  fillSeconds: number;
  handedOut: number;
  seconds: number;
  perSecond: number;
  cpuPer1000: number;
  storeCpuPer1000: number | null;
}

/** The i-th URL: spread over `hosts` hosts, depths 0-5, due now or (if not in the due share) fetched and due in a month. */
function record(i: number, dueShare: number): LinkRecord {
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

async function fill(linkbase: LinkBase, size: number, dueShare: number): Promise<number> {
  const started = performance.now();
  for (let from = 0; from < size; from += 10_000) {
    await linkbase.insertNew(
      Array.from({ length: Math.min(10_000, size - from) }, (_, i) => record(from + i, dueShare)),
    );
    await linkbase.flush();
  }
  return (performance.now() - started) / 1000;
}

function elasticsearchPid(): number | null {
  try {
    const status = execFileSync('bash', [`${repoRoot}deploy/local/stack.sh`, 'status'], { encoding: 'utf8' });
    const match = /^elasticsearch\s+\S+\s+up\s+pid (\d+)/m.exec(status);
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/** Rounds back to back until the time or round limit, or until nothing is due; answers every URL at once. */
async function measure(
  linkbase: LinkBase,
  storePid: number | null,
): Promise<Pick<Row, 'handedOut' | 'seconds' | 'perSecond' | 'cpuPer1000' | 'storeCpuPer1000'>> {
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
    now: () => NOW,
  });
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
  return {
    handedOut,
    seconds,
    perSecond: handedOut / seconds,
    cpuPer1000: ((used.user + used.system) / 1e6 / handedOut) * 1000,
    storeCpuPer1000: storeSeconds === null ? null : (storeSeconds / handedOut) * 1000,
  };
}

const rows: Row[] = [];
const log = (line: string) => !values.json && process.stderr.write(`${line}\n`);

/** Compiles the hot paths before the first measured size, so it is not charged for the JIT. */
async function warmUp(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'frontier-bench-'));
  const linkbase = await FileLinkBase.open(dir);
  await fill(linkbase, 20_000, 1);
  await measure(linkbase, null);
  await linkbase.close();
  rmSync(dir, { recursive: true, force: true });
}

await warmUp();
for (const mode of values.modes.split(',')) {
  for (const size of values.sizes.split(',').map(Number)) {
    for (const dueShare of values.due.split(',').map(Number)) {
      let linkbase: LinkBase;
      let cleanup: () => Promise<void>;
      if (mode === 'embedded') {
        const dir = mkdtempSync(join(tmpdir(), 'frontier-bench-'));
        linkbase = await FileLinkBase.open(dir);
        cleanup = async () => rmSync(dir, { recursive: true, force: true });
      } else {
        const url = stackEnv().ELASTICSEARCH_URL || 'http://127.0.0.1:19200';
        const index = `crawler-frontier-bench-${randomUUID().slice(0, 8)}`;
        linkbase = await createElasticsearchLinkBase(
          loadElasticsearchConfig({ env: {}, overrides: { url, index } }),
          silentLogger(),
        );
        cleanup = async () => {
          const client = new Client({ node: url });
          await client.indices.delete({ index }, { ignore: [404] });
          await client.indices.deleteIndexTemplate({ name: index }, { ignore: [404] });
          await client.close();
        };
      }
      try {
        log(`${mode}: filling ${size} URLs (${dueShare * 100}% due)...`);
        const fillSeconds = await fill(linkbase, size, dueShare);
        const result = await measure(linkbase, mode === 'elasticsearch' ? elasticsearchPid() : null);
        const row = { mode, size, dueShare, fillSeconds, ...result };
        rows.push(row);
        log(
          `  ${Math.round(row.perSecond)} URLs/s, ${row.cpuPer1000.toFixed(3)} CPU s / 1,000 here${row.storeCpuPer1000 === null ? '' : `, ${row.storeCpuPer1000.toFixed(3)} in Elasticsearch`}`,
        );
      } finally {
        await linkbase.close();
        await cleanup();
      }
    }
  }
}

if (values.json) process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
else {
  process.stdout.write(
    '| link base | URLs | due | handed out | URLs/s (wall) | CPU s / 1,000 URLs (scheduler) | CPU s / 1,000 URLs (Elasticsearch) |\n|---|---|---|---|---|---|---|\n',
  );
  for (const row of rows) {
    process.stdout.write(
      `| ${row.mode} | ${row.size.toLocaleString('en')} | ${row.dueShare * 100}% | ${row.handedOut} | ${Math.round(row.perSecond).toLocaleString('en')} | ${row.cpuPer1000.toFixed(3)} | ${row.storeCpuPer1000 === null ? '-' : row.storeCpuPer1000.toFixed(3)} |\n`,
    );
  }
}
