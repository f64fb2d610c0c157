import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { extractHtml, extractLimitsOf, loadLinkextractConfig } from '@crawler/linkextract';
import { defaultCorpusDir, loadArticleCorpus } from './article-corpus.js';
import { measureExtractionSpeed } from './extraction-speed.js';
import { pageCounts, scorePages, type PageCounts } from './shingle-score.js';
import { loadTestWebPages } from './test-web-pages.js';

/**
 * `npm run bench:extraction`: main-text quality on the article-extraction-benchmark (scored the
 * benchmark's way), then extraction pages/s on the test web and on the same real pages against
 * a bare htmlparser2 pass. `--quality` or `--speed` runs one half; `--worst N` lists the pages
 * that lose most.
 */
const { values } = parseArgs({
  options: {
    corpus: { type: 'string', default: defaultCorpusDir },
    quality: { type: 'boolean', default: false },
    speed: { type: 'boolean', default: false },
    worst: { type: 'string', default: '0' },
    json: { type: 'boolean', default: false },
  },
});
const both = !values.quality && !values.speed;
const corpus = loadArticleCorpus(values.corpus);
const out: Record<string, unknown> = {
  machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', node: process.version },
};
const lines: string[] = [];

if (values.quality || both) {
  const limits = extractLimitsOf(loadLinkextractConfig({ env: {} }));
  const rows: (PageCounts & { id: string; url: string; method: string })[] = corpus.map((page) => {
    const result = extractHtml(page.html, limits);
    return { id: page.id, url: page.url, method: result.textMethod, ...pageCounts(page.truth, result.text) };
  });
  const score = scorePages(rows);
  out.quality = score;
  lines.push(
    `main text      ${score.pages} pages of the article-extraction-benchmark: precision ${score.precision.toFixed(3)}, recall ${score.recall.toFixed(3)}, F1 ${score.f1.toFixed(3)} (Readability.js 0.947, trafilatura 2.0 0.958)`,
  );
  const worst = Number(values.worst);
  for (const row of [...rows].sort((a, b) => a.tp - b.tp).slice(0, worst)) {
    lines.push(
      `  ${row.tp.toFixed(2)} tp ${row.fp.toFixed(2)} fp ${row.fn.toFixed(2)} fn  ${row.method.padEnd(6)} ${row.id.slice(0, 12)} ${row.url}`,
    );
  }
}

if (values.speed || both) {
  const real = corpus.map((page) => ({
    body: Buffer.from(page.html),
    finalUrl: page.url,
    depth: 1,
    mediaType: 'text/html',
    charset: 'utf-8',
    headers: {},
  }));
  const samples = [
    await measureExtractionSpeed('test web (full profile)', await loadTestWebPages()),
    await measureExtractionSpeed('article benchmark pages', real),
  ];
  out.speed = samples;
  for (const sample of samples) {
    lines.push(
      `${sample.name.padEnd(24)} ${sample.pages} pages, ${sample.megabytes} MB: bare htmlparser2 ${sample.bare.pagesPerSecond} pages/s, extraction ${sample.extraction.pagesPerSecond} pages/s (ratio ${sample.ratio})`,
    );
  }
}

process.stdout.write(values.json ? `${JSON.stringify(out)}\n` : `${lines.join('\n')}\n`);
