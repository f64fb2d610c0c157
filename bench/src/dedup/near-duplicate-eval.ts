import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalUrl, silentLogger, type FingerprintStore, type PageStore, type StatusUpdate } from '@crawler/core';
import { createDedupStage, loadDedupConfig, type DedupStageSettings } from '@crawler/dedup';
import { MemoryFingerprintStore, WarcPageStore } from '@crawler/embedded';
import { createParsedPageBuilder } from './parsed-pages.js';

export interface LabeledPage {
  url: string;
  html: string | Buffer;
  charset?: string;
}

/** Pages with what is known about them: groups of copies (exact or near) by kind, and pairs that are not copies. */
export interface LabeledWeb {
  pages: LabeledPage[];
  groups: { kind: string; urls: string[] }[];
  negatives: { kind: string; a: string; b: string }[];
  /** Labels that could not be made, by reason. */
  skipped: Record<string, number>;
  /** Every pair outside the groups is a negative (generated webs); otherwise such links are "unlabeled". */
  exhaustive: boolean;
}

export interface NearDuplicateScore {
  pages: number;
  /** Dedup decisions, by decision. */
  decisions: Record<string, number>;
  /**
   * Duplicate and near-duplicate decisions: right when both pages are in one labeled group, wrong
   * when a negative pair or an exhaustive web says so, else unlabeled.
   */
  linked: { right: number; wrong: number; unlabeled: number };
  nearLinked: { right: number; wrong: number; unlabeled: number };
  /** Per kind of labeled group: pairs, and pairs the decisions put together. */
  recall: Record<string, { pairs: number; found: number }>;
  /** Per kind of negative pair: pairs, and pairs the decisions wrongly put together. */
  negatives: Record<string, { pairs: number; joined: number }>;
  /** Wrong links (a few), and every unlabeled one, to look at. */
  wrongLinks: string[];
  unlabeledLinks: string[];
  /** Hamming distances of the near duplicates found. */
  distances: number[];
}

/**
 * Runs every page through link extraction's parser and the real dedup stage, in a fixed shuffled
 * order (as a crawl would meet them), then scores the duplicate decisions against the labels:
 * precision over the links the decisions made, recall over labeled pairs of copies (two pages
 * count as found when the decisions put them in one cluster, whichever came first).
 */
export async function evaluateNearDuplicates(
  web: LabeledWeb,
  options: { store?: FingerprintStore; settings?: Partial<DedupStageSettings>; seed?: number } = {},
): Promise<NearDuplicateScore> {
  const canonical = (url: string) => canonicalUrl(url) ?? url;
  const predicted = new UnionFind();
  const labeled = new UnionFind();
  for (const group of web.groups)
    for (const url of group.urls.slice(1)) labeled.join(canonical(group.urls[0]!), canonical(url));
  const negative = new Set(
    web.negatives.flatMap((pair) => [
      `${canonical(pair.a)} ${canonical(pair.b)}`,
      `${canonical(pair.b)} ${canonical(pair.a)}`,
    ]),
  );
  const score: NearDuplicateScore = {
    pages: 0,
    decisions: {},
    linked: { right: 0, wrong: 0, unlabeled: 0 },
    nearLinked: { right: 0, wrong: 0, unlabeled: 0 },
    recall: {},
    negatives: {},
    wrongLinks: [],
    unlabeledLinks: [],
    distances: [],
  };
  await crawlInOrder(shuffle(web.pages, options.seed ?? 1), options, (status) => {
    score.pages++;
    const decision = status.change ?? status.outcome;
    score.decisions[decision] = (score.decisions[decision] ?? 0) + 1;
    if (!status.duplicateOf) return;
    predicted.join(status.url, status.duplicateOf);
    const verdict =
      labeled.find(status.url) === labeled.find(status.duplicateOf)
        ? 'right'
        : web.exhaustive || negative.has(`${status.url} ${status.duplicateOf}`)
          ? 'wrong'
          : 'unlabeled';
    const near = status.change === 'near_duplicate';
    if (near) score.distances.push(status.distance ?? -1);
    for (const tally of near ? [score.linked, score.nearLinked] : [score.linked]) tally[verdict]++;
    const described = `${status.url} ${decision} of ${status.duplicateOf}${near ? ` at ${status.distance}` : ''}`;
    if (verdict === 'wrong' && score.wrongLinks.length < 10) score.wrongLinks.push(described);
    if (verdict === 'unlabeled') score.unlabeledLinks.push(described);
  });
  for (const group of web.groups) {
    const tally = (score.recall[group.kind] ??= { pairs: 0, found: 0 });
    for (const url of group.urls.slice(1)) {
      tally.pairs++;
      if (predicted.find(canonical(group.urls[0]!)) === predicted.find(canonical(url))) tally.found++;
    }
  }
  for (const pair of web.negatives) {
    const tally = (score.negatives[pair.kind] ??= { pairs: 0, joined: 0 });
    tally.pairs++;
    if (predicted.find(canonical(pair.a)) === predicted.find(canonical(pair.b))) tally.joined++;
  }
  return score;
}

/**
 * Runs the pages, in the order given, through link extraction's parser and the real dedup stage
 * (fresh fingerprint and WARC page stores unless given), and hands over each page's status: a crawl
 * that meets the pages in that order.
 */
export async function crawlInOrder(
  pages: readonly LabeledPage[],
  options: { store?: FingerprintStore; pages?: PageStore; settings?: Partial<DedupStageSettings> },
  onStatus: (status: StatusUpdate) => void,
): Promise<void> {
  const dir = options.pages ? null : mkdtempSync(join(tmpdir(), 'near-dup-'));
  const warc = options.pages ?? (await WarcPageStore.open(join(dir!, 'warc')));
  const store = options.store ?? new MemoryFingerprintStore();
  const stage = createDedupStage({
    fingerprints: store,
    pages: warc,
    settings: { ...loadDedupConfig({ env: {} }), ...options.settings },
    logger: silentLogger(),
  });
  const parse = createParsedPageBuilder();
  let clock = Date.UTC(2026, 0, 1);
  try {
    for (const entry of pages) {
      const body = Buffer.isBuffer(entry.html) ? entry.html : Buffer.from(entry.html);
      const parsed = await parse(
        {
          url: entry.url,
          body,
          finalUrl: entry.url,
          depth: 1,
          mediaType: 'text/html',
          charset: entry.charset ?? 'utf-8',
          headers: {},
        },
        (clock += 1000),
        null,
      );
      onStatus((await stage.handle(parsed, {} as never)).at(-1)!.value as StatusUpdate);
    }
  } finally {
    if (dir) {
      await warc.close();
      rmSync(dir, { recursive: true, force: true });
    }
    if (!options.store) await store.close();
  }
}

class UnionFind {
  private readonly parent = new Map<string, string>();

  find(item: string): string {
    let root = item;
    while (this.parent.has(root) && this.parent.get(root) !== root) root = this.parent.get(root)!;
    this.parent.set(item, root);
    return root;
  }

  join(a: string, b: string): void {
    const [x, y] = [this.find(a), this.find(b)];
    if (x !== y) this.parent.set(x, y);
  }
}

function shuffle<T>(items: readonly T[], seed: number): T[] {
  const out = items.slice();
  let state = (0x9e3779b9 ^ seed) >>> 0;
  for (let i = out.length - 1; i > 0; i--) {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Precision of labeled links (unlabeled ones aside) and recall over the given kinds of labeled groups. */
export function summarize(
  score: NearDuplicateScore,
  kinds: (kind: string) => boolean = () => true,
): { precision: number; recall: number; pairs: number } {
  const picked = Object.entries(score.recall).filter(([kind]) => kinds(kind));
  const pairs = picked.reduce((sum, [, tally]) => sum + tally.pairs, 0);
  const found = picked.reduce((sum, [, tally]) => sum + tally.found, 0);
  const links = score.linked.right + score.linked.wrong;
  return { precision: links === 0 ? 1 : score.linked.right / links, recall: pairs === 0 ? 1 : found / pairs, pairs };
}
