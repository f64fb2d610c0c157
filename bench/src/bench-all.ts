import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cleanUpOnSignals } from './abort-cleanup.js';
import type { BenchResults } from './bench-results.js';
import { describeMachine } from './machine-info.js';
import { parseDuration } from './parse-duration.js';
import { runPeerSuite } from './peers/peer-suite.js';
import { benchDir } from './peers/python-env.js';
import { bedEstimateMs, runBedSuite } from './realweb/bed-suite.js';
import { replaceGeneratedSection } from './report/docs-section.js';
import { renderPlots } from './report/render-plots.js';
import { renderReport } from './report/render-report.js';
import { runScaleCurve } from './scale/scale-curve.js';
import { repoRoot } from './stack/stack-env.js';
import { probeStack } from './stack/stack-probe.js';
import { runStageSuite, STAGE_ESTIMATES_MS } from './stages/stage-suite.js';
import { TimeBudget } from './time-budget.js';

/**
 * `npm run bench:all`: peers on the same work, the peers on the real-web bed, each stage against
 * its physical limit, and the scale curve, within a time budget; writes docs/BENCHMARKS.md's
 * generated section, the plots in docs/bench/ and the raw results beside them.
 */
const SECTIONS = ['peers', 'bed', 'stages', 'scale'];
const { values } = parseArgs({
  options: {
    budget: { type: 'string', default: '30m' },
    only: { type: 'string', default: SECTIONS.join(',') },
    rounds: { type: 'string', default: '3' },
    peers: { type: 'string', default: 'raw,floor,embedded,stack,services,crawlee,scrapy' },
    'bed-peers': { type: 'string', default: 'floor,embedded,stack,crawlee,scrapy,wget' },
    'bed-rounds': { type: 'string', default: '1' },
    'bed-concurrency': { type: 'string', default: '8' },
    'bed-profile': { type: 'boolean', default: true },
    hosts: { type: 'string', default: '10' },
    'pages-per-host': { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '50' },
    'scale-sizes': { type: 'string', default: '1000,10000,100000,1000000' },
    'scale-modes': { type: 'string', default: 'embedded,stack' },
    'scale-hosts': { type: 'string', default: '4' },
    'scale-pages-per-host': { type: 'string', default: '1000' },
    'docs-root': { type: 'string', default: repoRoot },
    'no-docs': { type: 'boolean', default: false },
  },
});
const sections = new Set(values.only.split(','));
const list = (text: string) => text.split(',').filter(Boolean);
const startedAt = new Date();
const budget = new TimeBudget(parseDuration(values.budget));
const log = (line: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
cleanUpOnSignals(log);
const machine = describeMachine();

const probe = await probeStack();
if (!probe.env) log(`[stack] not reachable (${probe.problem}); the stack rows are skipped`);
Object.assign(machine.versions, probe.versions);

// Time held back for the later sections while an earlier one decides whether to run more rounds.
const stagesReserveMs = sections.has('stages') ? Object.values(STAGE_ESTIMATES_MS).reduce((sum, ms) => sum + ms, 0) : 0;
const scaleReserveMs = sections.has('scale') ? 240_000 : 0;
const bedOptions = {
  peers: list(values['bed-peers']),
  concurrency: Number(values['bed-concurrency']),
  rounds: Number(values['bed-rounds']),
  profile: values['bed-profile'],
};
const bedReserveMs = sections.has('bed') ? bedEstimateMs(bedOptions) : 0;

const workload = {
  hosts: Number(values.hosts),
  pagesPerHost: Number(values['pages-per-host']),
  concurrency: Number(values.concurrency),
};
let peers: BenchResults['peers'] = { specs: [], rounds: [] };
let pages = workload.hosts * workload.pagesPerHost;
if (sections.has('peers')) {
  const suite = await runPeerSuite({
    ...workload,
    maxRounds: Number(values.rounds),
    peers: list(values.peers),
    stack: probe.env,
    budget,
    reserveMs: bedReserveMs + stagesReserveMs + scaleReserveMs,
    log,
  });
  peers = { specs: suite.specs, rounds: suite.rounds };
  pages = suite.pages;
  for (const round of suite.rounds) {
    const version = round.notes?.version;
    if (typeof version === 'string')
      machine.versions[round.peer === 'crawlee' ? 'Crawlee (@crawlee/cheerio)' : 'Scrapy'] = version;
  }
}
const bed = sections.has('bed')
  ? await runBedSuite({
      ...bedOptions,
      stack: probe.env,
      budget,
      reserveMs: stagesReserveMs + scaleReserveMs,
      log,
    })
  : null;
for (const round of bed?.rounds ?? []) {
  const version = round.notes?.version;
  if (round.peer === 'wget' && typeof version === 'string') machine.versions.Wget = version;
}
const stages = sections.has('stages') ? await runStageSuite(probe.env, budget, scaleReserveMs, log) : [];
const scaleWorkload = { hosts: Number(values['scale-hosts']), pagesPerHost: Number(values['scale-pages-per-host']) };
const scale = sections.has('scale')
  ? await runScaleCurve({
      sizes: list(values['scale-sizes']).map(Number),
      modes: list(values['scale-modes']) as ('embedded' | 'stack')[],
      ...scaleWorkload,
      concurrency: workload.concurrency,
      stack: probe.env,
      budget,
      log,
    })
  : [];

machine.loadAverageEnd = loadavg()[0]!;
const results: BenchResults = {
  startedAt: startedAt.toISOString(),
  elapsedSeconds: (Date.now() - startedAt.getTime()) / 1000,
  budgetSeconds: budget.totalMs / 1000,
  machine,
  workload: { ...workload, pages, pageCap: pages },
  peers,
  bed,
  stages,
  scale,
  scaleWorkload,
  skipped: budget.skipped,
};

const resultsDir = join(benchDir, 'results');
mkdirSync(resultsDir, { recursive: true });
const resultsFile = join(resultsDir, `bench-all-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
log(`results: ${resultsFile}`);
// The page shows one run: a partial run (--only) leaves it alone, so its sections never mix runs.
if (values['no-docs'] || SECTIONS.some((section) => !sections.has(section)))
  log('docs not rewritten (--no-docs or --only)');
else {
  const docs = join(values['docs-root'], 'docs');
  const plots = renderPlots(results);
  mkdirSync(join(docs, 'bench'), { recursive: true });
  for (const [file, svg] of Object.entries(plots)) writeFileSync(join(docs, 'bench', file), svg);
  writeFileSync(join(docs, 'bench', 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  const page = join(docs, 'BENCHMARKS.md');
  writeFileSync(page, replaceGeneratedSection(readFileSync(page, 'utf8'), renderReport(results, Object.keys(plots))));
  log(`wrote ${page} and ${Object.keys(plots).length} plots in ${join(docs, 'bench')}`);
}
for (const entry of budget.skipped) log(`skipped: ${entry.what}: ${entry.why}`);
