import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { crawlEmbedded } from './embedded-crawl-bench.js';
import { rawGets } from './raw-undici.js';
import { startTestWebProcess } from './test-web-process.js';

/**
 * `npm run bench`: crawls the bench profile of the test web in embedded mode and compares pages/s
 * with plain undici GETs of the same URLs at the same concurrency, measured in the same run.
 */
const { values } = parseArgs({
  options: {
    hosts: { type: 'string', default: '10' },
    'pages-per-host': { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '50' },
    'max-time': { type: 'string', default: '300' },
    json: { type: 'boolean', default: false },
  },
});
const hosts = Number(values.hosts);
const pagesPerHost = Number(values['pages-per-host']);
const concurrency = Number(values.concurrency);

const web = await startTestWebProcess([
  '--profile',
  'bench',
  '--hosts',
  String(hosts),
  '--pages-per-host',
  String(pagesPerHost),
]);
try {
  // The test web renders a page on its first request: one full pass first, so the baseline measures fetching only.
  await rawGets(web.pages, concurrency, concurrency);
  const raw = await rawGets(web.pages, concurrency, concurrency);
  const crawl = await crawlEmbedded(web.seeds, concurrency, Number(values['max-time']) * 1000);
  const ratio = crawl.perSecond / raw.perSecond;
  const result = {
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      memoryGb: Math.round(totalmem() / 1024 ** 3),
      node: process.version,
    },
    workload: { hosts, pagesPerHost, pages: web.pages.length, concurrency },
    raw: { perSecond: Math.round(raw.perSecond), seconds: Number(raw.seconds.toFixed(2)), errors: raw.errors },
    embedded: {
      ...crawl,
      perSecond: Math.round(crawl.perSecond),
      seconds: Number(crawl.seconds.toFixed(2)),
      cpuSecondsPer1000: Number(crawl.cpuSecondsPer1000.toFixed(3)),
    },
    ratio: Number(ratio.toFixed(3)),
  };
  if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else {
    process.stdout.write(
      [
        `workload      ${web.pages.length} pages on ${hosts} hosts of the test web (bench profile), concurrency ${concurrency}`,
        `raw undici    ${result.raw.perSecond} pages/s (${result.raw.seconds}s, ${raw.errors} errors)`,
        `embedded      ${result.embedded.perSecond} pages/s (${result.embedded.seconds}s, ${crawl.pages} pages, ${crawl.stopReason}), ${result.embedded.cpuSecondsPer1000} CPU s per 1000 pages, peak RSS ${crawl.peakRssMb} MB`,
        `ratio         ${result.ratio} of the raw limit (target: at least 0.5)`,
        `machine       ${result.machine.cpus} × ${result.machine.cpuModel}, ${result.machine.memoryGb} GB, Node ${process.version}`,
      ].join('\n') + '\n',
    );
  }
} finally {
  await web.stop();
}
