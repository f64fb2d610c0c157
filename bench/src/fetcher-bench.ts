import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { runFetcherStage } from './fetcher-stage-run.js';
import { rawGets } from './raw-undici.js';
import { startTestWebProcess } from './test-web-process.js';
import { OWN_SITE_BUDGET } from '@crawler/fetcher';

/**
 * `node bench/dist/fetcher-bench.js`: the fetcher alone (stage + gate + client) against plain
 * undici GETs of the same URLs at the same concurrency, on 1, 10 and 100 hosts of the test web's
 * bench profile (in its own process); then peak memory with 1,000 hosts queued under the default
 * politeness (one request per host per second).
 */
const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '10000' },
    concurrency: { type: 'string', default: '50' },
    hosts: { type: 'string', default: '1,10,100' },
    'queued-hosts': { type: 'string', default: '1000' },
    'queued-pages-per-host': { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    json: { type: 'boolean', default: false },
  },
});
const totalPages = Number(values.pages);
const concurrency = Number(values.concurrency);
const rounds = Number(values.rounds);
const median = (numbers: number[]) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)]!;

const throughput = [];
for (const hosts of values.hosts.split(',').map(Number)) {
  const perHost = Math.max(1, Math.ceil(concurrency / hosts));
  const web = await startTestWebProcess([
    '--profile',
    'bench',
    '--hosts',
    String(hosts),
    '--pages-per-host',
    String(Math.ceil(totalPages / hosts)),
  ]);
  try {
    const urls = roundRobinByHost(web.pages.slice(0, totalPages), hosts);
    await rawGets(urls, concurrency, perHost); // warm-up: the server renders each page once, then serves it from memory
    // Rounds alternate, and medians are kept, so a busy neighbour on the machine hurts both sides alike.
    const raw: { perSecond: number; cpuPer1000: number }[] = [];
    const fetched: Awaited<ReturnType<typeof runFetcherStage>>[] = [];
    const uncompressed: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const cpuStart = process.cpuUsage();
      const result = await rawGets(urls, concurrency, perHost);
      const cpu = process.cpuUsage(cpuStart);
      raw.push({ perSecond: result.perSecond, cpuPer1000: ((cpu.user + cpu.system) / 1e6 / urls.length) * 1000 });
      const settings = {
        concurrency,
        perHostConcurrency: perHost,
        minDelayMs: 0,
        ...OWN_SITE_BUDGET,
        delayFactor: 0,
        queueWaitingMax: 100_000,
      };
      fetched.push(await runFetcherStage(urls, settings, concurrency * 2));
      uncompressed.push((await runFetcherStage(urls, settings, concurrency * 2, 'identity')).perSecond);
    }
    const rawPerSecond = median(raw.map((r) => r.perSecond));
    const fetcherPerSecond = median(fetched.map((r) => r.perSecond));
    throughput.push({
      hosts,
      pages: urls.length,
      concurrency,
      perHost,
      rawPerSecond: Math.round(rawPerSecond),
      fetcherPerSecond: Math.round(fetcherPerSecond),
      ratio: Number((fetcherPerSecond / rawPerSecond).toFixed(2)),
      identityPerSecond: Math.round(median(uncompressed)),
      identityRatio: Number((median(uncompressed) / rawPerSecond).toFixed(2)),
      rawCpuSecondsPer1000: Number(median(raw.map((r) => r.cpuPer1000)).toFixed(3)),
      fetcherCpuSecondsPer1000: Number(median(fetched.map((r) => r.cpuSecondsPer1000)).toFixed(3)),
      outcomes: fetched.at(-1)!.outcomes,
    });
  } finally {
    await web.stop();
  }
}

const queuedHosts = Number(values['queued-hosts']);
const queuedWeb = await startTestWebProcess([
  '--profile',
  'bench',
  '--hosts',
  String(queuedHosts),
  '--pages-per-host',
  values['queued-pages-per-host'],
]);
let memory;
try {
  const urls = roundRobinByHost(queuedWeb.pages, queuedHosts);
  const run = await runFetcherStage(urls, { concurrency, perHostConcurrency: 1, minDelayMs: 1000 }, 2000);
  memory = {
    hosts: queuedHosts,
    urls: urls.length,
    accepted: 2000,
    seconds: Number(run.seconds.toFixed(1)),
    peakQueues: run.peakQueues,
    peakWaiting: run.peakWaiting,
    rssBeforeMb: run.rssBeforeMb,
    peakRssMb: run.peakRssMb,
    peakHeapGrowthMb: run.peakHeapGrowthMb,
    outcomes: run.outcomes,
  };
} finally {
  await queuedWeb.stop();
}

const result = {
  machine: {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(totalmem() / 1024 ** 3),
    node: process.version,
  },
  throughput,
  memory,
};
if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`);
else {
  const lines = [
    `medians of ${rounds} alternating rounds; "no gzip": bodies not compressed for the bus`,
    'hosts  pages  conc  per-host  raw undici/s  fetcher/s  ratio  no gzip/s  ratio  CPU s/1000 raw / fetcher',
  ];
  for (const row of throughput) {
    const cells = [
      [row.hosts, 5],
      [row.pages, 5],
      [row.concurrency, 4],
      [row.perHost, 8],
      [row.rawPerSecond, 12],
      [row.fetcherPerSecond, 9],
      [row.ratio.toFixed(2), 5],
      [row.identityPerSecond, 9],
      [row.identityRatio.toFixed(2), 5],
    ] as const;
    lines.push(
      `${cells.map(([value, width]) => String(value).padStart(width)).join('  ')}  ${row.rawCpuSecondsPer1000} / ${row.fetcherCpuSecondsPer1000}`,
    );
  }
  lines.push(
    `queued   ${memory.urls} URLs on ${memory.hosts} hosts, ${memory.accepted} taken at once, 1 s per host: ${memory.seconds} s, peak ${memory.peakQueues} queues / ${memory.peakWaiting} waiting, RSS ${memory.rssBeforeMb} MB before, ${memory.peakRssMb} MB at peak, heap growth ${memory.peakHeapGrowthMb} MB`,
    `machine  ${result.machine.cpus} × ${result.machine.cpuModel}, ${result.machine.memoryGb} GB, Node ${process.version}`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** Round-robin over hosts, as a frontier partitioned by host delivers them: every host queued at once. */
function roundRobinByHost(pages: string[], hosts: number): string[] {
  const byHost = new Map<string, string[]>();
  for (const url of pages) {
    const host = new URL(url).host;
    let list = byHost.get(host);
    if (!list) byHost.set(host, (list = []));
    list.push(url);
  }
  const lists = [...byHost.values()].slice(0, hosts);
  const out: string[] = [];
  for (let i = 0; lists.some((list) => i < list.length); i++)
    for (const list of lists) if (i < list.length) out.push(list[i]!);
  return out;
}
