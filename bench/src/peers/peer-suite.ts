import { loadavg } from 'node:os';
import type { PeerSpec } from '../bench-results.js';
import type { PeerRound } from '../peer-summary.js';
import { rawGets } from '../raw-undici.js';
import { startTestWebProcess } from '../test-web-process.js';
import type { TimeBudget } from '../time-budget.js';
import { scoreAgainstTruth } from '../truth-score.js';
import { launchPeer, preparePeers } from './peer-launch.js';
import type { PeerRun, PeerSettings } from './peer-process.js';
import { PEER_SPECS } from './peer-specs.js';

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

/**
 * Every peer crawls the same test web (bench profile, its own process) in rounds; each round
 * visits the peers in a rotated order so none always runs first or last, and the server's
 * request log is read and reset around every crawl.
 */
export async function runPeerSuite(
  options: PeerSuiteOptions,
): Promise<{ specs: PeerSpec[]; rounds: PeerRound[]; pages: number }> {
  const { budget, log } = options;
  const { peers: active, tools } = preparePeers(options.peers, options.stack, budget, log);
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
    const run = (peer: string): Promise<PeerRun> => launchPeer(peer, settings, tools, async (result) => result);
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
