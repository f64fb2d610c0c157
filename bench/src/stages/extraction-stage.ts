import { existsSync } from 'node:fs';
import type { PageInput } from '@crawler/linkextract';
import { defaultCorpusDir, loadArticleCorpus } from '../article-corpus.js';
import type { StageComparison } from '../bench-results.js';
import { measureExtractionSpeed } from '../extraction-speed.js';

/**
 * Link extraction (the whole page parser) against a bare htmlparser2 pass over the same pages,
 * with extraction-speed.ts (CPU time, best of alternating rounds): on the crawl's own pages from
 * the running test web, and on the real pages of the article-extraction benchmark if present.
 */
export async function measureExtractionStage(
  benchPages: readonly { url: string; body: Buffer }[],
  corpusDir = defaultCorpusDir,
): Promise<StageComparison[]> {
  const pages: PageInput[] = benchPages.map(({ url, body }) => ({
    body,
    finalUrl: url,
    depth: 1,
    mediaType: 'text/html',
    charset: 'utf-8',
    headers: {},
  }));
  const sets = [{ name: `test web bench pages (${pages.length} × ~4 KB)`, short: 'extraction, bench pages', pages }];
  if (existsSync(corpusDir)) {
    const real = loadArticleCorpus(corpusDir).map((page) => ({
      body: Buffer.from(page.html),
      finalUrl: page.url,
      depth: 1,
      mediaType: 'text/html',
      charset: 'utf-8',
      headers: {},
    }));
    sets.push({
      name: `article benchmark (${real.length} real pages)`,
      short: 'extraction, real article pages',
      pages: real,
    });
  }
  const out: StageComparison[] = [];
  for (const set of sets) {
    const sample = await measureExtractionSpeed(set.name, set.pages);
    out.push({
      stage: `Link extraction: ${set.name}`,
      short: set.short,
      status: 'measured',
      ours: {
        what: 'page parser (links, scope, main text, metadata), pages/s',
        perSecond: sample.extraction.pagesPerSecond,
      },
      limit: { what: 'decode + bare htmlparser2 pass, pages/s', perSecond: sample.bare.pagesPerSecond },
      ratio: sample.ratio,
      note: 'CPU time of one core, best of 9 alternating rounds',
    });
  }
  if (!existsSync(corpusDir))
    out.push({ stage: 'Link extraction: article benchmark', status: 'gap', note: `corpus not found at ${corpusDir}` });
  return out;
}
