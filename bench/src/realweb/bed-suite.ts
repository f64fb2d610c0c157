import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PeerSpec } from '../bench-results.js';
import { launchPeer, preparePeers, runnerPath } from '../peers/peer-launch.js';
import { runPeerProcess, type PeerRun, type PeerSettings } from '../peers/peer-process.js';
import { PEER_SPECS } from '../peers/peer-specs.js';
import { repoRoot } from '../stack/stack-env.js';
import type { TimeBudget } from '../time-budget.js';
import { bedTruth, loadBed, scoreCrawl, type CrawlStores } from './bed-client.js';
import { tallyBedScore, type BedRound } from './bed-tally.js';
import { summarizeCpuProfiles, type CpuProfileSummary } from './cpu-profile-summary.js';
import { readProfiles } from './profile-files.js';

/** Everything the bed section of one run measured. */
export interface BedSection {
  truth: { pages: number; sites: { name: string; pages: number }[]; disallowedLinks: number; duplicateGroups: number };
  concurrency: number;
  specs: PeerSpec[];
  rounds: BedRound[];
  /** The embedded crawl of the bed under `node --cpu-prof`, or null when not run. */
  profile: BedProfile | null;
}

/** A profiled embedded crawl of the bed: the profile of its main thread and the process's CPU from /proc. */
export interface BedProfile {
  /** CPU seconds of the whole process (every thread) from `go` to done. */
  cpuSeconds: number;
  seconds: number;
  summary: CpuProfileSummary;
}

export interface BedSuiteOptions {
  peers: string[];
  concurrency: number;
  rounds: number;
  profile: boolean;
  stack: Record<string, string> | null;
  budget: TimeBudget;
  /** Budget held back for the sections after this one. */
  reserveMs: number;
  log: (line: string) => void;
}

/** First-round guesses (ms) on a two-core machine, scoring included; later rounds use what the previous one took. */
export const BED_ESTIMATE_MS: Record<string, number> = {
  floor: 15_000,
  embedded: 45_000,
  stack: 110_000,
  services: 130_000,
  crawlee: 60_000,
  scrapy: 60_000,
  wget: 15_000,
};
export const BED_PROFILE_ESTIMATE_MS = 50_000;
const CRAWL_TIME_LIMIT_MS = 300_000;

/** What one round of the bed is expected to take, for the sections that run before it. */
export function bedEstimateMs(options: Pick<BedSuiteOptions, 'peers' | 'profile'>): number {
  const crawls = options.peers.reduce((sum, peer) => sum + (BED_ESTIMATE_MS[peer] ?? 60_000), 0);
  return crawls + (options.profile ? BED_PROFILE_ESTIMATE_MS : 0);
}

/**
 * Every peer crawls the real-web bed (Debian's documentation sites behind nginx on loopback) from
 * its three seeds, in rounds visiting the peers in rotated order. Each crawl sends a User-Agent of
 * its own, so test/realweb/bed.py counts its requests in nginx's access log, and is scored by
 * bed.py from what it kept: this crawler's WARC files and link base, or its HBase table and
 * Elasticsearch index, or the list of URLs another crawler kept. Then one more embedded crawl runs
 * under `node --cpu-prof` to say where the time goes. Null when the bed is not up.
 */
export async function runBedSuite(options: BedSuiteOptions): Promise<BedSection | null> {
  const { budget, log } = options;
  let bed;
  try {
    bed = loadBed();
  } catch (error) {
    budget.skip('the real-web bed', (error as Error).message);
    return null;
  }
  const scratch = mkdtempSync(join(tmpdir(), 'bench-bed-'));
  try {
    const truthFile = join(scratch, 'truth.json');
    const truth = await bedTruth(truthFile);
    const { peers, tools } = preparePeers(options.peers, options.stack, budget, log);
    const run = `${randomUUID().slice(0, 8)}`;
    const settingsFor = (token: string, extra?: Record<string, string>): PeerSettings => ({
      seeds: bed.sites.map((site) => `${site.origin}/`),
      pages: truth.pages.map((page) => page.url),
      concurrency: options.concurrency,
      // A cap no crawler reaches: the bed is crawled to its end.
      maxPages: truth.pages.length * 10,
      timeLimitMs: CRAWL_TIME_LIMIT_MS,
      userAgent: `${token}/1.0 (+http://127.0.0.1/bench)`,
      ...(extra ? { extra } : {}),
    });
    const rounds: BedRound[] = [];
    let lastRoundMs = bedEstimateMs({ peers, profile: false });
    for (let round = 1; round <= options.rounds; round++) {
      if (round > 1 && !budget.allows(`bed round ${round} of ${options.rounds}`, lastRoundMs * 1.1, options.reserveMs))
        break;
      const started = performance.now();
      for (const peer of peers.map((_, i) => peers[(i + round - 1) % peers.length]!)) {
        if (round === 1 && !budget.allows(`bed peer ${peer}`, BED_ESTIMATE_MS[peer] ?? 60_000, options.reserveMs))
          continue;
        // Letters and dashes: the product token must start a valid User-Agent and not be part of another.
        const token = `bedbench-${peer}-r${round}-${run}`;
        const outDir = join(scratch, token);
        mkdirSync(outDir);
        try {
          const settings = settingsFor(token, peer === 'embedded' ? { outDir } : undefined);
          const entry = await launchPeer(peer, settings, tools, (result, stackNames) =>
            scoreRound(truthFile, token, round, peer, result, storesOf(result, outDir, stackNames)),
          );
          rounds.push(entry);
          log(
            `[bed] round ${round} ${peer.padEnd(8)} ${entry.pagesPerSecond.toFixed(0).padStart(5)} pages/s, ${entry.cpuMsPerPage.toFixed(2)} CPU ms/page, ${entry.peakRssMb} MB, ${entry.tally.truthPagesRequested}/${entry.tally.truthPages} requested, ${entry.tally.stored} stored, ${entry.tally.requests} requests, load ${entry.loadAverage.toFixed(1)}`,
          );
        } catch (error) {
          budget.skip(
            `bed peer ${peer}, round ${round}`,
            `failed: ${(error as Error).message.split('\n').slice(0, 3).join(' ')}`,
          );
        } finally {
          rmSync(outDir, { recursive: true, force: true });
        }
      }
      lastRoundMs = performance.now() - started;
    }
    let profile: BedProfile | null = null;
    if (options.profile && budget.allows('bed CPU profile', BED_PROFILE_ESTIMATE_MS, options.reserveMs)) {
      try {
        profile = await profileEmbeddedCrawl(settingsFor(`bedbench-profile-${run}`), scratch);
        const top = profile.summary.byCaller
          .slice(0, 3)
          .map((share) => `${share.name} ${(share.share * 100).toFixed(0)}%`);
        log(`[bed] profile: ${profile.cpuSeconds.toFixed(1)} CPU s; by caller ${top.join(', ')}`);
      } catch (error) {
        budget.skip('bed CPU profile', `failed: ${(error as Error).message.split('\n').slice(0, 3).join(' ')}`);
      }
    }
    return {
      truth: {
        pages: truth.pages.length,
        sites: truth.sites.map((site) => ({ name: site.name, pages: site.pages })),
        disallowedLinks: truth.disallowed.length,
        duplicateGroups: truth.duplicateGroups.length,
      },
      concurrency: options.concurrency,
      specs: PEER_SPECS.filter((spec) => rounds.some((round) => round.peer === spec.id)),
      rounds,
      profile,
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function scoreRound(
  truthFile: string,
  token: string,
  round: number,
  peer: string,
  result: PeerRun,
  stores: CrawlStores,
): Promise<BedRound> {
  const tally = tallyBedScore(await scoreCrawl(truthFile, token, stores));
  const pages = Math.max(tally.truthPagesRequested, 1);
  return {
    round,
    peer,
    pagesPerSecond: tally.truthPagesRequested / Math.max(result.done.lastPageSeconds, 1e-3),
    cpuMsPerPage: (result.cpuSeconds * 1000) / pages,
    ...(result.stackCpuSeconds === undefined ? {} : { stackCpuMsPerPage: (result.stackCpuSeconds * 1000) / pages }),
    peakRssMb: result.peakRssMb,
    seconds: result.done.seconds,
    tally,
    loadAverage: loadavg()[0]!,
    notes: result.done.notes,
  };
}

function storesOf(result: PeerRun, outDir: string, stackNames: Record<string, string> | null): CrawlStores {
  if (stackNames)
    return {
      elasticsearchUrl: stackNames.ELASTICSEARCH_URL!,
      index: stackNames.ELASTICSEARCH_INDEX!,
      hbaseRestUrl: stackNames.HBASE_REST_URL!,
      table: stackNames.HBASE_TABLE!,
    };
  if (result.storedUrls === null) return { out: outDir };
  const list = join(outDir, 'stored.txt');
  writeFileSync(list, result.storedUrls.join('\n'));
  return { storedList: list };
}

/**
 * The embedded crawl of the bed with the bench row's settings under `node --cpu-prof`. The WARC
 * encoder thread starts without the parent's flags, so the profile is the main thread's; the
 * process's CPU from /proc covers every thread.
 */
async function profileEmbeddedCrawl(settings: PeerSettings, dir: string): Promise<BedProfile> {
  const profiles = join(dir, 'cpu-profiles');
  const outDir = join(dir, 'profiled-crawl');
  const run = await runPeerProcess(
    process.execPath,
    ['--cpu-prof', `--cpu-prof-dir=${profiles}`, runnerPath('crawler-runner')],
    { ...settings, extra: { outDir, countOnly: 'true' } },
  );
  return {
    cpuSeconds: run.cpuSeconds,
    seconds: run.done.seconds,
    summary: summarizeCpuProfiles(readProfiles([profiles]), { repoRoot }),
  };
}
