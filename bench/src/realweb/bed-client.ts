import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../stack/stack-env.js';

const run = promisify(execFile);
const BED_PY = join(repoRoot, 'test/realweb/bed.py');

/** What `stack.sh up realweb` wrote: the sites (origin, files, robots.txt) and nginx's access log. */
export interface Bed {
  accessLog: string;
  sites: { name: string; origin: string; root: string; package: string; robots: string | null }[];
}

/** The bed's ground truth as test/realweb/bed.py walks it over the files on disk. */
export interface BedTruth {
  sites: { name: string; origin: string; pages: number }[];
  pages: { url: string; file: string; sha256: string; bytes: number; links: string[] }[];
  disallowed: string[];
  missing: string[];
  other: string[];
  redirects: Record<string, string>;
  duplicateGroups: string[][];
}

/** A crawl scored by bed.py from nginx's log and the stores (see its score()). */
export interface BedScore {
  truthPages: number;
  requests: number;
  truthPagesRequested: number;
  notRequested: string[];
  requestedTwice: string[];
  disallowedRequested: string[];
  outsideTruthRequested: string[];
  storedTwice: string[];
  groupsStoredTwice: string[][];
  notStored: string[];
  duplicates: number;
  falseDuplicates: { url: string; duplicateOf: string | null }[];
  conditionalRequests: number;
  notModified: number;
  /** With `textRecall`: each stored page's main text against its content area, and the summary. */
  textRecall?: PageTextScore[];
  textRecallSummary?: TextScore;
}

/** One page's main text against its generator's content area: shares of words (bed.py text_score). */
export interface PageTextScore {
  url: string;
  /** Of the content area's words, the share found in the text. */
  recall: number;
  /** Of the text's words, the share that are in the content area. */
  precision: number;
  /** Words of the content area. */
  words: number;
}

/** Main texts scored against the content areas (bed.py recall_summary). */
export interface TextScore {
  pages: number;
  atThreshold: number;
  /** Pages whose recall is at least `atThreshold`. */
  shareAtThreshold: number;
  meanRecall: number;
  meanPrecision: number;
  /** Precision over all words, a big page weighing by its size. */
  wordPrecision: number;
  /** Truth pages with no text given (bed.py recall only). */
  missing?: string[];
  /** The pages of lowest recall, when asked for. */
  worst?: PageTextScore[];
}

export function bedFile(): string {
  const stackDir = process.env.CRAWLER_STACK_DIR ?? join(repoRoot, '.stack');
  return join(stackDir, 'realweb', 'bed.json');
}

/** The running bed, or a message saying how to start it. */
export function loadBed(): Bed {
  const file = bedFile();
  if (!existsSync(file)) throw new Error(`the real-web bed is not up (${file} missing): npm run stack:up`);
  return JSON.parse(readFileSync(file, 'utf8')) as Bed;
}

async function python(args: string[]): Promise<string> {
  const { stdout } = await run('python3', [BED_PY, ...args], { maxBuffer: 256 * 1024 * 1024, timeout: 300_000 });
  return stdout;
}

/** Computes the truth once into `file` (the walk takes seconds) and returns it. */
export async function bedTruth(file: string): Promise<BedTruth> {
  if (!existsSync(file)) writeFileSync(file, await python(['truth', '--bed', bedFile()]));
  return JSON.parse(readFileSync(file, 'utf8')) as BedTruth;
}

/**
 * Where a crawl's pages are: an embedded crawl's --out folder (WARC files, link base), the stack's
 * index and table, or, for a crawler without a link base, a file of the URLs it kept, one a line
 * (a URL kept twice is listed twice).
 */
export type CrawlStores =
  | { out: string }
  | { elasticsearchUrl: string; index: string; hbaseRestUrl: string; table: string }
  | { storedList: string };

/** Scores the crawl whose User-Agent carries `uaToken` against the truth in `truthFile`. */
export async function scoreCrawl(
  truthFile: string,
  uaToken: string,
  stores: CrawlStores,
  options: { textRecall?: boolean } = {},
): Promise<BedScore> {
  const where =
    'out' in stores
      ? ['--out', stores.out]
      : 'storedList' in stores
        ? ['--stored', stores.storedList]
        : ['--es-url', stores.elasticsearchUrl, '--es-index', stores.index];
  if ('table' in stores) where.push('--hbase-rest', stores.hbaseRestUrl, '--hbase-table', stores.table);
  const args = ['score', '--bed', bedFile(), '--truth', truthFile, '--ua', uaToken, ...where];
  if (options.textRecall) args.push('--text-recall');
  return JSON.parse(await python(args)) as BedScore;
}

/**
 * Main texts produced without a crawl (`{url: text}` in `textsFile`, e.g. by
 * bench/src/realweb/bed-texts.ts) scored by bed.py against each truth page's content area.
 */
export async function scoreTexts(truthFile: string, textsFile: string, worst = 0): Promise<TextScore> {
  const args = ['recall', '--bed', bedFile(), '--truth', truthFile, '--texts', textsFile, '--worst', String(worst)];
  return JSON.parse(await python(args)) as TextScore;
}
