import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { cleanUpOnSignals } from './abort-cleanup.js';
import { describeMachine } from './machine-info.js';
import { crawlMemoryCurve, lastThirdGrowth, type MemoryCurve, type MemoryPoint } from './memory/memory-curve.js';
import { parseDuration } from './parse-duration.js';
import { formatCount, markdownTable } from './report/format.js';
import { lineChart } from './report/svg-chart.js';
import { startTestWebProcess } from './test-web-process.js';

/**
 * `node bench/dist/memory-curve-bench.js`: the embedded crawl of a big synthetic site (the test
 * web's bench profile, 10 hosts × 10,000 pages by default) to its end, its RSS and heap read every
 * `--every` pages. Prints the curve as a Markdown table and the growth over the last third;
 * `--svg FILE` draws it, `--json FILE` keeps the points.
 */
const { values } = parseArgs({
  options: {
    hosts: { type: 'string', default: '10' },
    'pages-per-host': { type: 'string', default: '10000' },
    concurrency: { type: 'string', default: '50' },
    every: { type: 'string', default: '5000' },
    'time-limit': { type: 'string', default: '40m' },
    svg: { type: 'string' },
    json: { type: 'string' },
  },
});
const log = (line: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
cleanUpOnSignals(log);
const machine = describeMachine();
const web = await startTestWebProcess([
  '--profile',
  'bench',
  '--hosts',
  values.hosts,
  '--pages-per-host',
  values['pages-per-host'],
]);
let curve: MemoryCurve;
try {
  log(`crawling ${formatCount(web.pages.length)} pages on ${web.hosts.length} hosts`);
  curve = await crawlMemoryCurve({
    seeds: web.seeds,
    concurrency: Number(values.concurrency),
    every: Number(values.every),
    maxTimeMs: parseDuration(values['time-limit']),
    onPoint: (point) => log(JSON.stringify(point)),
  });
} finally {
  await web.stop();
}
const growth = lastThirdGrowth(curve.points);
const rows = curve.points.map((point) => [
  formatCount(point.pages),
  point.seconds.toFixed(0),
  String(point.rssMb),
  String(point.peakRssMb),
  String(point.heapUsedMb),
  String(point.externalMb),
]);
process.stdout.write(
  `${markdownTable(['pages', 's', 'RSS MB', 'peak RSS since the last row MB', 'heap used MB', 'external MB'], rows)}\n\n` +
    `${formatCount(curve.pages)} pages in ${curve.seconds.toFixed(0)} s (${curve.stopReason}); ` +
    `the highest RSS of the last third against that of the middle third: ${(growth * 100).toFixed(1)} %. ` +
    `Load average ${loadavg()[0]!.toFixed(1)} at the end.\n`,
);
if (values.svg) {
  const series = (name: string, pick: (point: MemoryPoint) => number) => ({
    name,
    points: curve.points.map((point) => ({ x: point.pages, y: pick(point) })),
  });
  writeFileSync(
    values.svg,
    lineChart({
      title: `Memory of the embedded crawl over ${formatCount(curve.pages)} pages`,
      xLabel: 'pages fetched',
      yLabel: 'MB',
      series: [
        series('peak RSS', (point) => point.peakRssMb),
        series('RSS', (point) => point.rssMb),
        series('heap used', (point) => point.heapUsedMb),
      ],
      note: `${machine.cpus} × ${machine.cpuModel}, Node ${machine.node}`,
    }),
  );
}
if (values.json) writeFileSync(values.json, `${JSON.stringify({ machine, ...curve, growth }, null, 2)}\n`);
