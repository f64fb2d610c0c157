import { extractHtml, extractLimitsOf, loadLinkextractConfig } from '@crawler/linkextract';
import { describe, expect, it } from 'vitest';
import { loadArticleCorpus } from './article-corpus.js';
import { pageCounts, scorePages } from './shingle-score.js';

// Main-text quality cannot regress silently: the whole article-extraction-benchmark, read from
// fixtures/article-extraction-benchmark, scored the benchmark's way. Measured: F1 0.971 (docs/BENCHMARKS.md).
const F1_FLOOR = 0.965;

describe('main-text quality on the article-extraction-benchmark', () => {
  it(`stays at F1 >= ${F1_FLOOR}`, () => {
    const limits = extractLimitsOf(loadLinkextractConfig({ env: {} }));
    const pages = loadArticleCorpus();
    expect(pages).toHaveLength(181);
    const score = scorePages(pages.map((page) => pageCounts(page.truth, extractHtml(page.html, limits).text)));
    expect(score.f1).toBeGreaterThanOrEqual(F1_FLOOR);
    expect(score.precision).toBeGreaterThanOrEqual(0.95);
    expect(score.recall).toBeGreaterThanOrEqual(0.975);
  }, 60_000);
});
