import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { PeerSpec } from '../bench-results.js';
import type { PeerRound } from '../peer-summary.js';
import { rawGets } from '../raw-undici.js';
import { withFreshStack } from '../stack/stack-cleanup.js';
import { stackPids } from '../stack/stack-env.js';
import { startTestWebProcess } from '../test-web-process.js';
import type { TimeBudget } from '../time-budget.js';
import { scoreAgainstTruth } from '../truth-score.js';
import { runPeerProcess, type PeerRun, type PeerSettings } from './peer-process.js';
import { PEER_SPECS } from './peer-specs.js';
import { ensurePythonEnv, pythonDir } from './python-env.js';
import { runServicesPeer } from './services-peer.js';

export interface PeerSuiteOptions {
  hosts: number;
  pagesPerHost: number;
  concurrency: number;
  maxRounds: number;
  peers: string[];
  /** How to reach the stack, or null when it is not running (the stack peers are then skipped). */
  stack: Record<string, string> | null;
  budget: TimeBudget;
  /** Budget held back for the sections after this one. */
  reserveMs: number;
  log: (line: string) => void;
}

/** First-round guesses (ms) on a two-core machine; later rounds use what the previous round took. */
const FIRST_ROUND_ESTIMATE: Record<string, number> = {
  raw: 5_000,
  floor: 10_000,
  embedded: 30_000,
  stack: 100_000,
  services: 120_000,
  crawlee: 70_000,
  scrapy: 100_000,
};
const CRAWL_TIME_LIMIT_MS = 300_000;
const runner = (name: string) => fileURLToPath(new URL(`./${name}.js`, import.meta.url));

/**
 * Every peer crawls the same test web (bench profile, its own process) in rounds; each round
 * visits the peers in a rotated order so none always runs first or last, and the server's
 * request log is read and reset around every crawl.
 */
export async function runPeerSuite(
  options: PeerSuiteOptions,
): Promise<{ specs: PeerSpec[]; rounds: PeerRound[]; pages: number }> {
  const { budget, log } = options;
  const peers = options.peers.filter((peer) => {
    if ((peer === 'stack' || peer === 'services') && !options.stack) {
      budget.skip(`peer ${peer}`, 'the local stack is not reachable (npm run stack:up)');
      return false;
    }
    return true;
  });
  let python: string | null = null;
  if (peers.includes('scrapy')) {
    try {
      const env = ensurePythonEnv();
      python = env.python;
      if (env.installedSeconds > 0)
        log(`[peers] created bench/.venv with Scrapy in ${env.installedSeconds.toFixed(0)} s (not counted)`);
    } catch (error) {
      budget.skip('peer scrapy', `could not create the Python environment: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  const active = peers.filter((peer) => peer !== 'scrapy' || python !== null);
  const web = await startTestWebProcess([
    '--profile',
    'bench',
    '--hosts',
    String(options.hosts),
    '--pages-per-host',
    String(options.pagesPerHost),
  ]);
  const rounds: PeerRound[] = [];
  try {
    // The test web renders each page on its first request: one pass first, so no peer pays for it.
    await rawGets(web.pages, options.concurrency, options.concurrency);
    const settings: PeerSettings = {
      seeds: web.seeds,
      pages: web.pages,
      concurrency: options.concurrency,
      maxPages: web.pages.length,
      timeLimitMs: CRAWL_TIME_LIMIT_MS,
    };
    const run = (peer: string): Promise<PeerRun> => {
      if (peer === 'raw') return runPeerProcess(process.execPath, [runner('raw-runner')], settings);
      if (peer === 'floor') return runPeerProcess(process.execPath, [runner('floor-runner')], settings);
      if (peer === 'embedded') return runPeerProcess(process.execPath, [runner('crawler-runner')], settings);
      if (peer === 'crawlee') return runPeerProcess(process.execPath, [runner('crawlee-runner')], settings);
      if (peer === 'scrapy') return runPeerProcess(python!, [`${pythonDir}/scrapy_runner.py`], settings);
      return withFreshStack(options.stack!, 'bench', (env) =>
        peer === 'stack'
          ? runPeerProcess(
              process.execPath,
              [runner('crawler-runner')],
              { ...settings, extra: { ...env, stack: 'true' } },
              { stackPids: stackPids() },
            )
          : runServicesPeer(settings, env, stackPids()),
      );
    };
    let lastRoundMs = active.reduce((sum, peer) => sum + (FIRST_ROUND_ESTIMATE[peer] ?? 60_000), 0);
    for (let round = 1; round <= options.maxRounds; round++) {
      if (
        round > 1 &&
        !budget.allows(`peer round ${round} of ${options.maxRounds}`, lastRoundMs * 1.1, options.reserveMs)
      )
        break;
      const started = performance.now();
      const order = active.map((_, i) => active[(i + round - 1) % active.length]!);
      for (const peer of order) {
        if (round === 1 && !budget.allows(`peer ${peer}`, FIRST_ROUND_ESTIMATE[peer] ?? 60_000, options.reserveMs))
          continue;
        await web.resetRequests();
        let result: PeerRun;
        try {
          result = await run(peer);
        } catch (error) {
          budget.skip(
            `peer ${peer}, round ${round}`,
            `failed: ${(error as Error).message.split('\n').slice(0, 3).join(' ')}`,
          );
          continue;
        }
        const score = scoreAgainstTruth(web.pages, result.okUrls, await web.requestCounts());
        const pages = result.done.pages;
        const entry: PeerRound = {
          round,
          peer,
          pages,
          pagesPerSecond: pages / Math.max(result.done.lastPageSeconds, 1e-3),
          seconds: result.done.seconds,
          cpuSecondsPer1000: (result.cpuSeconds / Math.max(pages, 1)) * 1000,
          ...(result.stackCpuSeconds === undefined
            ? {}
            : { stackCpuSecondsPer1000: (result.stackCpuSeconds / Math.max(pages, 1)) * 1000 }),
          peakRssMb: result.peakRssMb,
          score,
          loadAverage: loadavg()[0]!,
          notes: result.done.notes,
        };
        rounds.push(entry);
        log(
          `[peers] round ${round} ${peer.padEnd(8)} ${Math.round(entry.pagesPerSecond).toString().padStart(6)} pages/s, ${entry.cpuSecondsPer1000.toFixed(2)} CPU s/1000, ${entry.peakRssMb} MB, ${score.fetched}/${score.truthPages} pages, load ${entry.loadAverage.toFixed(1)}`,
        );
      }
      lastRoundMs = performance.now() - started;
    }
    return {
      specs: PEER_SPECS.filter((spec) => rounds.some((round) => round.peer === spec.id)),
      rounds,
      pages: web.pages.length,
    };
  } finally {
    await web.stop();
  }
}
