import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { silentLogger, type FingerprintStore, type Logger, type StatusUpdate } from '@crawler/core';
import { contentDigest, createDedupStage, loadDedupConfig, type DedupStageSettings } from '@crawler/dedup';
import { MemoryFingerprintStore, WarcPageStore } from '@crawler/embedded';
import { createParsedPageBuilder, fetchPage } from './parsed-pages.js';

/**
 * A site re-crawled in rounds: what to fetch, what truly changed, and which pages have copies on
 * the site (left out of the scores: a copy follows its original, whichever of the two came first).
 */
export interface RecrawlSite {
  name: string;
  setRound(round: number): void;
  truth(): { pages: string[]; changed: string[]; copies: string[] };
}

export type Method = 'raw' | 'mainText' | 'denoised';
export const METHODS: Method[] = ['raw', 'mainText', 'denoised'];

export interface Tally {
  unchanged: number;
  changed: number;
  /** Truly unchanged pages each method treated as changed. */
  falseChanges: Record<Method, number>;
  /** Truly changed pages each method treated as changed. */
  hits: Record<Method, number>;
}

export interface RecrawlResult {
  site: string;
  pages: number;
  rounds: (Tally & { round: number })[];
  total: Tally;
  /** What the dedup stage decided over all re-crawl rounds, by decision. */
  decisions: Record<string, number>;
}

export interface RecrawlOptions {
  rounds?: number;
  store?: FingerprintStore;
  settings?: Partial<DedupStageSettings>;
  logger?: Logger;
}

const emptyTally = (): Tally => ({
  unchanged: 0,
  changed: 0,
  falseChanges: { raw: 0, mainText: 0, denoised: 0 },
  hits: { raw: 0, mainText: 0, denoised: 0 },
});

/**
 * The classic change-detection experiment: crawl a site, then re-crawl it round after round and
 * count, among pages the site's truth says did not change, how many each method calls changed,
 * and among those that did, how many it catches. Methods: the raw body's MD5; the digest of title
 * and main text (dedup before site templates); and the dedup stage itself (main text without the
 * learned template). Copies of other pages are left out: they are decided duplicates, not changes.
 * Every page goes through link extraction's parser and the real dedup stage, in a shuffled order
 * per round; a map stands in for the link base's stored digest.
 */
export async function runRecrawlExperiment(site: RecrawlSite, options: RecrawlOptions = {}): Promise<RecrawlResult> {
  const rounds = options.rounds ?? 6;
  const dir = mkdtempSync(join(tmpdir(), 'recrawl-'));
  const pages = await WarcPageStore.open(join(dir, 'warc'));
  const store = options.store ?? new MemoryFingerprintStore();
  const settings = { ...loadDedupConfig({ env: {} }), ...options.settings };
  const stage = createDedupStage({ fingerprints: store, pages, settings, logger: options.logger ?? silentLogger() });
  const parse = createParsedPageBuilder();
  const previous = {
    denoised: new Map<string, string>(),
    raw: new Map<string, string>(),
    mainText: new Map<string, string>(),
  };
  const result: RecrawlResult = { site: site.name, pages: 0, rounds: [], total: emptyTally(), decisions: {} };
  let clock = Date.UTC(2026, 0, 1);
  try {
    for (let round = 0; round <= rounds; round++) {
      site.setRound(round);
      const truth = site.truth();
      const changed = new Set(truth.changed);
      const copies = new Set(truth.copies);
      // A page that does not answer 200 this round (a flaky page's first tries) is left out of it.
      const fetched = (await mapLimit(shuffle(truth.pages, round), 8, fetchPage)).filter((page) => page !== null);
      const tally = emptyTally();
      for (const input of fetched) {
        clock += 1000;
        const page = await parse(input, clock, previous.denoised.get(input.url) ?? null);
        const emissions = await stage.handle(page, {} as never);
        const status = emissions.at(-1)!.value as StatusUpdate;
        const raw = createHash('md5').update(input.body).digest('hex');
        const mainText = contentDigest('md5', page.title, page.text, input.body);
        const treatedChanged: Record<Method, boolean> = {
          raw: previous.raw.has(input.url) && previous.raw.get(input.url) !== raw,
          mainText: previous.mainText.has(input.url) && previous.mainText.get(input.url) !== mainText,
          denoised: status.change === 'changed',
        };
        previous.raw.set(input.url, raw);
        previous.mainText.set(input.url, mainText);
        if (status.digest) previous.denoised.set(input.url, status.digest);
        if (round === 0 || copies.has(input.url)) continue;
        result.decisions[status.change ?? status.outcome] =
          (result.decisions[status.change ?? status.outcome] ?? 0) + 1;
        const truly = changed.has(input.url);
        for (const target of [tally, result.total]) {
          if (truly) target.changed++;
          else target.unchanged++;
          for (const method of METHODS) {
            if (!treatedChanged[method]) continue;
            if (truly) target.hits[method]++;
            else target.falseChanges[method]++;
          }
        }
      }
      if (round === 0) result.pages = fetched.length;
      else result.rounds.push({ round, ...tally });
    }
    return result;
  } finally {
    await pages.close();
    if (!options.store) await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `limit` requests at a time, results in input order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const index = next++;
        out[index] = await work(items[index]!);
      }
    }),
  );
  return out;
}

/** A fixed shuffle per round: crawl order decides when templates are learned, so it should vary. */
function shuffle(items: readonly string[], round: number): string[] {
  const out = items.slice();
  let state = 0x9e3779b9 ^ round;
  for (let i = out.length - 1; i > 0; i--) {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export function share(part: number, whole: number): number {
  return whole === 0 ? 0 : part / whole;
}
