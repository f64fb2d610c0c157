import type { BedScore } from './bed-client.js';

/** How many examples of each kind of mistake a round keeps on record (the full lists are bed.py's). */
const EXAMPLES = 3;

/** One crawl of the bed, scored by bed.py, as counts with a few examples of each mistake. */
export interface BedTally {
  /** Every request of the crawl in nginx's log (robots.txt included). */
  requests: number;
  truthPages: number;
  truthPagesRequested: number;
  /** Truth pages requested more than once. */
  requestedTwice: number;
  disallowedRequested: number;
  /** Requests for URLs the truth does not know (neither page, robots.txt, redirect, broken nor other link). */
  outsideTruthRequested: number;
  /** Truth pages kept: the page itself, or one member of its exact-duplicate group. */
  stored: number;
  /** Truth pages kept more than once (versions, items, files). */
  storedTwice: number;
  /** Exact-duplicate groups of which more than one member was kept. */
  groupsStoredTwice: number;
  /** Truth pages the link base marks as duplicates (0 for a crawler without one). */
  markedDuplicate: number;
  /** Of those, pages whose text the page they are said to copy does not share. */
  falseDuplicates: number;
  /** Up to three URLs of each non-empty kind above, by the score's field name. */
  examples: Record<string, string[]>;
}

/** The counts of a bed score, with the first few URLs of each list as examples. */
export function tallyBedScore(score: BedScore): BedTally {
  const lists: Record<string, string[]> = {
    notRequested: score.notRequested,
    requestedTwice: score.requestedTwice,
    disallowedRequested: score.disallowedRequested,
    outsideTruthRequested: score.outsideTruthRequested,
    notStored: score.notStored,
    storedTwice: score.storedTwice,
    groupsStoredTwice: score.groupsStoredTwice.map((group) => group.join(' = ')),
    falseDuplicates: score.falseDuplicates.map((entry) => `${entry.url} (said to copy ${entry.duplicateOf ?? '?'})`),
  };
  return {
    requests: score.requests,
    truthPages: score.truthPages,
    truthPagesRequested: score.truthPagesRequested,
    requestedTwice: score.requestedTwice.length,
    disallowedRequested: score.disallowedRequested.length,
    outsideTruthRequested: score.outsideTruthRequested.length,
    stored: score.truthPages - score.notStored.length,
    storedTwice: score.storedTwice.length,
    groupsStoredTwice: score.groupsStoredTwice.length,
    markedDuplicate: score.duplicates,
    falseDuplicates: score.falseDuplicates.length,
    examples: Object.fromEntries(
      Object.entries(lists)
        .filter(([, urls]) => urls.length > 0)
        .map(([kind, urls]) => [kind, urls.slice(0, EXAMPLES)]),
    ),
  };
}

/** One crawler's crawl of the bed in one round. */
export interface BedRound {
  round: number;
  peer: string;
  /** Truth pages requested (nginx's log) per second up to the crawler's last page. */
  pagesPerSecond: number;
  /** The crawler's CPU time per truth page requested, ms. */
  cpuMsPerPage: number;
  /** The stack services' CPU time per truth page meanwhile, ms, for a crawl on the stack. */
  stackCpuMsPerPage?: number;
  peakRssMb: number;
  /** From `go` until the crawl returned. */
  seconds: number;
  tally: BedTally;
  loadAverage: number;
  notes?: Record<string, unknown>;
}
