import { titlePartKey, titleParts } from '../fingerprint/text-fingerprint.js';
import type { PageBlock } from '@crawler/core';
import { pairKey, templateVersion, type SiteTemplate } from './site-template.js';

/** A path is template when it is on at least this share of the sampled pages (and 3)... */
const MIN_PATH_SHARE = 0.3;
/** ...a (path, text) pair when on at least this share: a story behind three URLs of ten is not. */
const MIN_PAIR_SHARE = 0.5;
const MIN_PAGES = 3;
/** A path is template when at least this share of its texts also occur on other pages there. */
const MIN_REPEAT_SHARE = 0.5;
/** Distinct (path, text) pairs kept per sample; a longer page adds nothing a template needs. */
const MAX_SAMPLE_PAIRS = 600;
/** Title parts travel in samples as pairs at this pseudo-path, apart from every block rule. */
const TITLE_PATH = '00000000';

/**
 * A page's blocks as a template sample: its distinct (path, masked text) pairs as hex. Texts are
 * hashed after masking digits, so two copies of a page that differ only by a clock or a counter
 * give the same sample, and a set of samples keeps one.
 */
export function sampleOf(blocks: readonly PageBlock[], title: string | null = null): string {
  const pairs = new Set<string>();
  for (const part of title ? titleParts(title) : []) pairs.add(`${TITLE_PATH}${titlePartKey(part)}`);
  for (const block of blocks) {
    if (pairs.size >= MAX_SAMPLE_PAIRS) break;
    pairs.add(pairKey(block.path, block.masked));
  }
  return [...pairs].join('');
}

/**
 * Learns a site template from samples of several of its pages, in the spirit of Yi and Liu's
 * site style tree: a block is noise when the site repeats it across pages.
 * - A path whose texts mostly repeat on other pages holds noise whatever it says: navigation,
 *   footers, rotating ads (a pool of a few texts), timestamps and counters (equal once digits are
 *   masked). Paths of the article body hold texts that each occur on one page.
 * - A (path, text) pair on many pages is boilerplate even at a content path ("Advertisement").
 * - A title part on most pages is the site's name.
 * A story served under a print and a tracking URL repeats too, but on few pages and with its
 * other paragraphs unique, so neither rule takes it.
 */
export function learnTemplate(samples: readonly string[], now: number): SiteTemplate {
  const parsed = samples.map((sample) => {
    const pairs = new Set<string>();
    for (let i = 0; i + 16 <= sample.length; i += 16) pairs.add(sample.slice(i, i + 16));
    return pairs;
  });
  const pairPages = new Map<string, number>();
  const pathPages = new Map<string, number>();
  for (const pairs of parsed) {
    const paths = new Set<string>();
    for (const pair of pairs) {
      pairPages.set(pair, (pairPages.get(pair) ?? 0) + 1);
      paths.add(pair.slice(0, 8));
    }
    for (const path of paths) pathPages.set(path, (pathPages.get(path) ?? 0) + 1);
  }
  const texts = new Map<string, { total: number; repeated: number }>();
  for (const pairs of parsed) {
    for (const pair of pairs) {
      const path = pair.slice(0, 8);
      const entry = texts.get(path) ?? { total: 0, repeated: 0 };
      entry.total++;
      if (pairPages.get(pair)! >= 2) entry.repeated++;
      texts.set(path, entry);
    }
  }
  const minPathPages = Math.max(MIN_PAGES, Math.ceil(MIN_PATH_SHARE * parsed.length));
  const minPairPages = Math.max(MIN_PAGES, Math.ceil(MIN_PAIR_SHARE * parsed.length));
  const paths = new Set<number>();
  const known = new Set<number>();
  const titles = new Set<string>();
  for (const [path, count] of pathPages) {
    if (path === TITLE_PATH) continue;
    const value = Number.parseInt(path, 16);
    if (count >= 2) known.add(value);
    const { total, repeated } = texts.get(path)!;
    if (count >= minPathPages && repeated / total >= MIN_REPEAT_SHARE) paths.add(value);
  }
  const pairs = new Set<string>();
  for (const [pair, count] of pairPages) {
    if (count < minPairPages) continue;
    if (pair.startsWith(TITLE_PATH)) titles.add(pair.slice(8));
    else if (!paths.has(Number.parseInt(pair.slice(0, 8), 16))) pairs.add(pair);
  }
  return {
    version: templateVersion(paths, pairs, titles),
    learnedAt: now,
    pages: parsed.length,
    paths,
    pairs,
    known,
    titleParts: titles,
  };
}
