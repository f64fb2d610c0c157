import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkSimilarCommand, type SimilarReport } from '@crawler/cli';
import type { StatusUpdate } from '@crawler/core';
import { WarcPageStore } from '@crawler/embedded';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { longPagesOfOneSite } from './long-pages-one-site.js';
import { crawlInOrder, type LabeledWeb } from './near-duplicate-eval.js';
import { loadArticleCorpus } from '../article-corpus.js';
import { loadFixtureBedPages } from './bed-page-fixtures.js';
import { reprintsUnderOwnHeadline } from './reprints-own-headline.js';
import { shortItemsInTemplates } from './short-items-in-templates.js';

/** Negative pairs checked per set besides every labelled copy: spread over its list. */
const NEGATIVES_PER_SET = 40;
const asStage: Record<SimilarReport['decision'], string> = {
  exact_duplicate: 'duplicate',
  near_duplicate: 'near_duplicate',
  different: 'new',
  too_short: 'new',
};

// `crawler check similar A B` must decide about B what a crawl that met A first decides: the one
// near-duplicate rule, one size guard for exact copies. Both without a site template (a crawl of
// two pages learns none; the tool applies none).
describe('crawler check similar and the dedup stage', () => {
  const dir = mkdtempSync(join(tmpdir(), 'similar-agreement-'));
  // One page store for every two-page crawl: a store is a thread to start, and only a page's own
  // versions are read from it.
  let stored: WarcPageStore;
  beforeAll(async () => void (stored = await WarcPageStore.open(join(dir, 'warc'))));
  afterAll(async () => {
    await stored.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const [name, load] of [
    ['reprints under their own headline', () => reprintsUnderOwnHeadline(loadArticleCorpus())],
    ['short items in templates', () => shortItemsInTemplates(loadArticleCorpus())],
    ['long pages of one site', () => longPagesOfOneSite(loadFixtureBedPages())],
  ] as [string, () => LabeledWeb][])
    it(`decide alike on ${name}: every labelled copy, and negatives`, async () => {
      const web = load();
      const pages = new Map(
        web.pages.map((page, i) => [page.url, { ...page, file: join(dir, `${name.length}-${i}.html`) }]),
      );
      for (const page of pages.values()) writeFileSync(page.file, page.html);
      const step = Math.max(1, Math.floor(web.negatives.length / NEGATIVES_PER_SET));
      const pairs = [
        ...web.groups.map((group) => [group.urls[0]!, group.urls[1]!]),
        ...web.negatives.filter((_, i) => i % step === 0).map((pair) => [pair.a, pair.b]),
      ];
      const disagreements: string[] = [];
      let near = 0;
      for (const [a, b] of pairs) {
        const [first, second] = [pages.get(a!)!, pages.get(b!)!];
        const statuses: StatusUpdate[] = [];
        await crawlInOrder([first, second], { pages: stored }, (status) => statuses.push(status));
        const report = await similar(first.url, first.file, second.url, second.file);
        if (asStage[report.decision] !== statuses[1]!.change)
          disagreements.push(
            `${b} after ${a}: crawl ${statuses[1]!.change}, check similar ${report.decision} (${report.reason})`,
          );
        if (report.decision === 'near_duplicate') near++;
      }
      expect(disagreements).toEqual([]);
      expect(near).toBeGreaterThan(0);
    }, 180_000);
});

async function similar(urlA: string, fileA: string, urlB: string, fileB: string): Promise<SimilarReport> {
  const out: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => out.push(String(chunk)) > 0);
  try {
    expect(await checkSimilarCommand(['--json', '--url-a', urlA, '--url-b', urlB, fileA, fileB])).toBe(0);
  } finally {
    spy.mockRestore();
  }
  return JSON.parse(out.join('')) as SimilarReport;
}
