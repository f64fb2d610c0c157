import { mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { cleanUpOnSignals } from '../abort-cleanup.js';
import { rawGets } from '../raw-undici.js';
import { startTestWebProcess } from '../test-web-process.js';
import { checkoutRunnerArgs, runPeerProcess } from './peer-process.js';

/**
 * `node bench/dist/peers/embedded-ab.js CHECKOUT... [--rounds N] [--cpu-prof DIR]`: the embedded
 * crawl of the synthetic test web (the peers' workload), alternating between built checkouts of
 * the crawler (their own `bench/dist/peers/crawler-runner.js`) on one test web. On a machine
 * others share, only figures of the same run, side by side, compare. One JSON line per crawl;
 * with --cpu-prof each crawl writes a V8 profile into DIR/<checkout index>-r<round>.
 */
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: 'string', default: '2' },
    hosts: { type: 'string', default: '10' },
    'pages-per-host': { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '50' },
    'cpu-prof': { type: 'string' },
  },
});
if (positionals.length === 0) {
  process.stderr.write(
    'usage: embedded-ab.js CHECKOUT... [--rounds N] [--hosts N] [--pages-per-host N] [--cpu-prof DIR]\n',
  );
  process.exit(2);
}
cleanUpOnSignals((line) => process.stderr.write(`${line}\n`));
const concurrency = Number(values.concurrency);
const web = await startTestWebProcess([
  '--profile',
  'bench',
  '--hosts',
  values.hosts,
  '--pages-per-host',
  values['pages-per-host'],
]);
try {
  // The test web renders each page on its first request: one pass first, so no checkout pays for it.
  await rawGets(web.pages, concurrency, concurrency);
  for (let round = 1; round <= Number(values.rounds); round++)
    for (const [index, checkout] of positionals.entries()) {
      const profileDir = values['cpu-prof'] ? resolve(values['cpu-prof'], `${index}-r${round}`) : null;
      if (profileDir) mkdirSync(profileDir, { recursive: true });
      const run = await runPeerProcess(process.execPath, checkoutRunnerArgs(checkout, profileDir), {
        seeds: web.seeds,
        pages: web.pages,
        concurrency,
        maxPages: web.pages.length,
        timeLimitMs: 300_000,
      });
      const pages = run.done.pages;
      const line = {
        checkout,
        round,
        pages,
        cpuSecondsPer1000: Number(((run.cpuSeconds / Math.max(pages, 1)) * 1000).toFixed(2)),
        cpuSeconds: Number(run.cpuSeconds.toFixed(2)),
        seconds: Number(run.done.seconds.toFixed(1)),
        peakRssMb: run.peakRssMb,
        loadAverage: Number(loadavg()[0]!.toFixed(1)),
      };
      process.stdout.write(`${JSON.stringify(line)}\n`);
    }
} finally {
  await web.stop();
}
