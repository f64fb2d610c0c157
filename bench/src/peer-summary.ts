import { spread, type Spread } from './stats.js';
import type { TruthScore } from './truth-score.js';

/** One crawl of one peer in one round. */
export interface PeerRound {
  round: number;
  peer: string;
  pages: number;
  pagesPerSecond: number;
  seconds: number;
  cpuSecondsPer1000: number;
  /** CPU of the shared stack services (Kafka, Elasticsearch, HBase, Redis) per 1,000 pages, where metered. */
  stackCpuSecondsPer1000?: number;
  peakRssMb: number;
  score: TruthScore;
  /** 1-minute load average when the crawl ended. */
  loadAverage: number;
  notes?: Record<string, unknown>;
}

export interface PeerSummary {
  peer: string;
  rounds: number;
  pagesPerSecond: Spread;
  cpuSecondsPer1000: Spread;
  stackCpuSecondsPer1000: Spread | null;
  peakRssMb: Spread;
  seconds: Spread;
  /** The worst round: correctness must hold every time, not on average. */
  fetchedMin: number;
  truthPages: number;
  outsideMax: number;
  requestedTwiceMax: number;
  robotsOriginsMin: number;
  origins: number;
  /** This peer's pages/s over each other peer's, per round in which both ran, summarized. */
  ratios: Record<string, Spread>;
}

/**
 * Summaries per peer, in the order given. Ratios are taken round by round (both crawls ran
 * back to back under the same load) and then summarized, rather than dividing two medians.
 */
export function summarizePeers(order: readonly string[], rounds: readonly PeerRound[]): PeerSummary[] {
  const byPeer = new Map<string, PeerRound[]>();
  for (const round of rounds) byPeer.set(round.peer, [...(byPeer.get(round.peer) ?? []), round]);
  return order
    .filter((peer) => byPeer.has(peer))
    .map((peer) => {
      const own = byPeer.get(peer)!;
      const ratios: Record<string, Spread> = {};
      for (const other of order) {
        const pairs = own.flatMap((mine) => {
          const theirs = byPeer.get(other)?.find((round) => round.round === mine.round);
          return theirs && theirs.pagesPerSecond > 0 ? [mine.pagesPerSecond / theirs.pagesPerSecond] : [];
        });
        if (pairs.length > 0) ratios[other] = spread(pairs);
      }
      const stack = own.flatMap((round) =>
        round.stackCpuSecondsPer1000 === undefined ? [] : [round.stackCpuSecondsPer1000],
      );
      return {
        peer,
        rounds: own.length,
        pagesPerSecond: spread(own.map((round) => round.pagesPerSecond)),
        cpuSecondsPer1000: spread(own.map((round) => round.cpuSecondsPer1000)),
        stackCpuSecondsPer1000: stack.length > 0 ? spread(stack) : null,
        peakRssMb: spread(own.map((round) => round.peakRssMb)),
        seconds: spread(own.map((round) => round.seconds)),
        fetchedMin: Math.min(...own.map((round) => round.score.fetched)),
        truthPages: own[0]!.score.truthPages,
        outsideMax: Math.max(...own.map((round) => round.score.outside)),
        requestedTwiceMax: Math.max(...own.map((round) => round.score.requestedTwice)),
        robotsOriginsMin: Math.min(...own.map((round) => round.score.robotsOrigins)),
        origins: own[0]!.score.origins,
        ratios,
      };
    });
}
