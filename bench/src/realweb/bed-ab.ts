import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { cleanUpOnSignals } from '../abort-cleanup.js';
import { checkoutRunnerArgs, runPeerProcess } from '../peers/peer-process.js';
import { bedTruth, loadBed, scoreCrawl } from './bed-client.js';
import { tallyBedScore } from './bed-tally.js';

/**
 * `node bench/dist/realweb/bed-ab.js CHECKOUT_A CHECKOUT_B [--rounds N] [--profile DIR]`: the embedded crawl of the
 * real-web bed, alternating between two built checkouts of the crawler (their own
 * `bench/dist/peers/crawler-runner.js`), each crawl scored against the bed's truth. On a machine
 * others share, only figures of the same run, side by side, compare. One JSON line per crawl.
 * `--profile DIR` runs every crawl under `node --cpu-prof`, into `DIR/<a|b>-r<round>` (for
 * `summarize-cpu-profile.js`); the profiler's own cost is in both sides' CPU then.
 */
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '8' },
    profile: { type: 'string' },
  },
});
if (positionals.length < 2) {
  process.stderr.write('usage: bed-ab.js CHECKOUT_A CHECKOUT_B [--rounds N] [--concurrency N] [--profile DIR]\n');
  process.exit(2);
}
cleanUpOnSignals((line) => process.stderr.write(`${line}\n`));
const bed = loadBed();
const scratch = mkdtempSync(join(tmpdir(), 'bench-bed-ab-'));
try {
  const truthFile = join(scratch, 'truth.json');
  const truth = await bedTruth(truthFile);
  for (let round = 1; round <= Number(values.rounds); round++)
    for (const [index, checkout] of positionals.entries()) {
      // Letters and dashes: the product token must start a valid User-Agent (bed.py counts requests by it).
      const token = `bedbench-ab${index}-r${round}-${Date.now().toString(36)}`;
      const outDir = join(scratch, token);
      mkdirSync(outDir);
      const profileDir = values.profile ? resolve(values.profile, `${'ab'[index]}-r${round}`) : null;
      const run = await runPeerProcess(process.execPath, checkoutRunnerArgs(checkout, profileDir), {
        seeds: bed.sites.map((site) => `${site.origin}/`),
        pages: truth.pages.map((page) => page.url),
        concurrency: Number(values.concurrency),
        maxPages: truth.pages.length * 10,
        timeLimitMs: 300_000,
        userAgent: `${token}/1.0 (+http://127.0.0.1/bench)`,
        extra: { outDir },
      });
      const tally = tallyBedScore(await scoreCrawl(truthFile, token, { out: outDir }));
      rmSync(outDir, { recursive: true, force: true });
      const line = {
        checkout,
        round,
        cpuMsPerPage: Number(((run.cpuSeconds * 1000) / Math.max(tally.truthPagesRequested, 1)).toFixed(2)),
        seconds: Number(run.done.seconds.toFixed(1)),
        peakRssMb: run.peakRssMb,
        loadAverage: Number(loadavg()[0]!.toFixed(1)),
        requested: `${tally.truthPagesRequested}/${tally.truthPages}`,
        requestedTwice: tally.requestedTwice,
        stored: tally.stored,
        storedTwice: tally.storedTwice,
        markedDuplicate: tally.markedDuplicate,
        falseDuplicates: tally.falseDuplicates,
      };
      process.stdout.write(`${JSON.stringify(line)}\n`);
    }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
