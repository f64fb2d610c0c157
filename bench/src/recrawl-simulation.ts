import { createLinkRecord, type LinkRecord, type StatusUpdate } from '@crawler/core';
import { applyStatus, selectRound, type SelectionPolicy, type StatusPolicy } from '@crawler/scheduler';
import { startTestWeb } from '@crawler/testweb';
import {
  fetchStatus,
  nutchAdaptive,
  poissonAdaptive,
  stormcrawlerAdaptive,
  type Bounds,
  type RecrawlPolicyState,
} from './recrawl-policies.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** The test web's round 0 is 2026-01-01; rounds stand for days (its Last-Modified and sitemap dates use this). */
const ROUND_ZERO = Date.UTC(2026, 0, 1);

export interface SimulatedPage {
  url: string;
  /** Change probability per round (day), from the ground truth: reported, never shown to a policy. */
  probability: number;
  /** Rounds in which the page's content changed. */
  changedIn: number[];
  /** The page answers conditional requests and sends Last-Modified. */
  validators: boolean;
  sitemapChangefreq: string | null;
  sitemapLastmod: number | null;
}

export interface WebHistory {
  rounds: number;
  pages: SimulatedPage[];
}

/**
 * Plays the test web forward `rounds` rounds (days) and records, per page, in which rounds its
 * content changed (truth.changed), whether it answers with validators, and what its sitemap says
 * (changefreq and lastmod, read from the sitemap files it serves at round 0).
 */
export async function recordWebHistory(rounds: number, seed = 1): Promise<WebHistory> {
  const web = await startTestWeb({ seed });
  try {
    const truth = web.groundTruth();
    const validatorOrigins = new Set(truth.validatorHosts);
    const hints = new Map<string, { changefreq: string | null; lastmod: number | null }>();
    for (const file of truth.sitemapFiles) {
      const xml = await (await fetch(file)).text();
      for (const [, entry] of xml.matchAll(/<url>([\s\S]*?)<\/url>/g)) {
        const loc = /<loc>([^<]+)<\/loc>/.exec(entry!)?.[1];
        if (!loc) continue;
        const lastmod = /<lastmod>([^<]+)<\/lastmod>/.exec(entry!)?.[1];
        hints.set(loc.replaceAll('&amp;', '&'), {
          changefreq: /<changefreq>([^<]+)<\/changefreq>/.exec(entry!)?.[1] ?? null,
          lastmod: lastmod ? Date.parse(lastmod) : null,
        });
      }
    }
    const pages = new Set(truth.pages);
    const changedIn = new Map<string, number[]>();
    for (let round = 1; round <= rounds; round++) {
      web.setRound(round);
      for (const url of web.groundTruth().changed)
        if (pages.has(url)) changedIn.set(url, [...(changedIn.get(url) ?? []), round]);
    }
    return {
      rounds,
      pages: truth.changeRates
        .filter((rate) => pages.has(rate.url))
        .map((rate) => ({
          url: rate.url,
          probability: rate.probability,
          changedIn: changedIn.get(rate.url) ?? [],
          validators: validatorOrigins.has(new URL(rate.url).origin),
          sitemapChangefreq: hints.get(rate.url)?.changefreq ?? null,
          sitemapLastmod: hints.get(rate.url)?.lastmod ?? null,
        })),
    };
  } finally {
    await web.close();
  }
}

export interface SimulationResult {
  policy: string;
  /** Re-fetches after the first fetch of every page. */
  fetches: number;
  /** Re-fetches that found the content changed. */
  changesFound: number;
  changesPerFetch: number;
  /** Share of page-days on which the stored copy was the page's current content (Cho's freshness). */
  freshness: number;
}

export type PolicyFactory = (page: SimulatedPage, start: number) => RecrawlPolicyState;

export const BOUNDS: Bounds = { initialIntervalMs: DAY, minIntervalMs: HOUR, maxIntervalMs: 30 * DAY };

/** The policies compared, all with the same first interval (1 day) and bounds (1 hour to 30 days). */
export function policies(
  policy: Omit<StatusPolicy, keyof Bounds | 'random'> = {
    targetProbability: 0.5,
    hubBoost: 3,
    maxAttempts: 3,
    retryBaseMs: 60_000,
    retryMaxMs: 6 * HOUR,
  },
): Record<string, PolicyFactory> {
  const statusPolicy: StatusPolicy = { ...policy, ...BOUNDS, random: () => 0.5 };
  const poisson =
    (hints: boolean): PolicyFactory =>
    (page, start) => {
      const record = createLinkRecord(page.url, {
        sitemapChangefreq: hints ? page.sitemapChangefreq : null,
        sitemapLastmod: hints ? page.sitemapLastmod : null,
        leaseUntil: start,
      });
      const first: StatusUpdate = {
        ...firstFetch(record, start),
        lastModified: page.validators ? lastModified(page, 0) : null,
      };
      return poissonAdaptive(statusPolicy, applyStatus(record, first, start, statusPolicy), page.validators);
    };
  return {
    'Nutch AdaptiveFetchSchedule': (_, start) => nutchAdaptive(BOUNDS, start),
    'StormCrawler AdaptiveScheduler': (_, start) => stormcrawlerAdaptive(BOUNDS, start),
    'Poisson estimate (ours), no sitemap hints': poisson(false),
    'Poisson estimate (ours), with sitemap hints': poisson(true),
  };
}

/** Which due pages an hour's budget goes to: the indexes of `due`, in the order they are fetched. */
export type DueOrder = (due: readonly { index: number; state: RecrawlPolicyState }[], room: number) => number[];

/** Earliest due first: how Nutch's generator and StormCrawler's spouts order due URLs, and the default here. */
export const dueFirst: DueOrder = (due) =>
  [...due].sort((a, b) => a.state.nextFetchAt - b.state.nextFetchAt).map(({ index }) => index);

/**
 * The scheduler's own round selection (traffic class shares, level weights, most overdue first
 * within a level), each page standing for its own host; only for policies that keep a record.
 */
export function schedulerOrder(selection: SelectionPolicy, seed = 7): DueOrder {
  let state = seed;
  const random = () => (state = (state * 48271) % 2147483647) / 2147483647;
  return (due, room) =>
    selectRound(
      {
        candidates: due.map(({ index, state: page }) => ({
          ...page.record!,
          id: String(index),
          queueKey: String(index),
        })),
        room,
        hostAllowance: () => 1,
        admit: () => true,
        random,
      },
      selection,
    ).map((record) => Number(record.id));
}

/**
 * Every page is fetched at round 0, then whenever its policy asks, for `history.rounds` days.
 * `budgetPerDay` caps re-fetches per day (spread over the hours, given to due pages in `order`):
 * what a crawler with finite capacity does. Without it, each page is fetched exactly when due.
 */
export function simulate(
  history: WebHistory,
  name: string,
  factory: PolicyFactory,
  budgetPerDay?: number,
  order: DueOrder = dueFirst,
): SimulationResult {
  const end = ROUND_ZERO + (history.rounds + 1) * DAY;
  const fetchTimes = history.pages.map(() => [ROUND_ZERO]);
  const states = history.pages.map((page) => factory(page, ROUND_ZERO));
  let fetches = 0;
  let changesFound = 0;
  const fetch = (index: number, at: number) => {
    const page = history.pages[index]!;
    const times = fetchTimes[index]!;
    const round = Math.floor((at - ROUND_ZERO) / DAY);
    const previous = Math.floor((times.at(-1)! - ROUND_ZERO) / DAY);
    const changed = page.changedIn.some((k) => k > previous && k <= round);
    fetches++;
    if (changed) changesFound++;
    times.push(at);
    states[index] = states[index]!.fetched(at, changed, page.validators ? lastModified(page, round) : null);
  };
  if (budgetPerDay === undefined) {
    states.forEach((_, index) => {
      while (states[index]!.nextFetchAt < end)
        fetch(index, Math.max(states[index]!.nextFetchAt, fetchTimes[index]!.at(-1)! + 1));
    });
  } else {
    let allowance = 0;
    for (let at = ROUND_ZERO + HOUR; at < end; at += HOUR) {
      allowance += budgetPerDay / 24;
      const due = states.map((state, index) => ({ state, index })).filter(({ state }) => state.nextFetchAt <= at);
      for (const index of order(due, Math.floor(allowance))) {
        if (allowance < 1) break;
        allowance--;
        fetch(index, at);
      }
      allowance = Math.min(allowance, budgetPerDay / 24 + 1);
    }
  }
  return {
    policy: name,
    fetches,
    changesFound,
    changesPerFetch: fetches === 0 ? 0 : changesFound / fetches,
    freshness: freshness(history, fetchTimes),
  };
}

/** Share of (page, day) pairs where no change happened after the last fetch before that day ended. */
function freshness(history: WebHistory, fetchTimes: number[][]): number {
  let fresh = 0;
  let total = 0;
  history.pages.forEach((page, index) => {
    const rounds = fetchTimes[index]!.map((at) => Math.floor((at - ROUND_ZERO) / DAY));
    let f = 0;
    for (let day = 1; day <= history.rounds; day++) {
      while (f + 1 < rounds.length && rounds[f + 1]! <= day) f++;
      total++;
      if (!page.changedIn.some((k) => k > rounds[f]! && k <= day)) fresh++;
    }
  });
  return total === 0 ? 1 : fresh / total;
}

function lastModified(page: SimulatedPage, round: number): string {
  const last = page.changedIn.filter((k) => k <= round).at(-1) ?? 0;
  return new Date(ROUND_ZERO + last * DAY).toUTCString();
}

function firstFetch(record: LinkRecord, at: number): StatusUpdate {
  return { ...fetchStatus(record, at, null), change: 'new', digest: `${record.id}@${at}` };
}
