import { corpusLabeled, noisyNewsLabeled, testWebLabeled } from './labeled-webs.js';
import { longPagesOfOneSite } from './long-pages-one-site.js';
import { loadArticleCorpus } from '../article-corpus.js';
import { loadFixtureBedPages } from './bed-page-fixtures.js';
import { reprintsUnderOwnHeadline } from './reprints-own-headline.js';
import { shortItemsInTemplates } from './short-items-in-templates.js';
import { evaluateNearDuplicates, summarize, type LabeledWeb, type NearDuplicateScore } from './near-duplicate-eval.js';

const percent = (part: number, whole: number) => (whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)}%`);

export function formatNearDuplicateScore(name: string, web: LabeledWeb, score: NearDuplicateScore): string {
  const all = summarize(score);
  const lines = [
    `${name}: ${score.pages} pages; decisions ${Object.entries(score.decisions)
      .map(([decision, count]) => `${decision} ${count}`)
      .join(', ')}`,
    `  precision ${all.precision.toFixed(3)} (${score.linked.right} of ${score.linked.right + score.linked.wrong} labeled duplicate links right; near-duplicate links ${score.nearLinked.right} of ${score.nearLinked.right + score.nearLinked.wrong}; ${score.linked.unlabeled} links the labels say nothing about), recall ${all.recall.toFixed(3)} over ${all.pairs} labeled pairs`,
    ...Object.entries(score.recall).map(
      ([kind, tally]) =>
        `  copies: ${kind.padEnd(40)} ${`${tally.found}/${tally.pairs}`.padStart(9)} found (${percent(tally.found, tally.pairs)})`,
    ),
    ...Object.entries(score.negatives).map(
      ([kind, tally]) =>
        `  not copies: ${kind.padEnd(36)} ${`${tally.joined}/${tally.pairs}`.padStart(9)} wrongly joined`,
    ),
    `  near-duplicate distances: ${[0, 1, 2, 3, 4, 5, 6].map((d) => `${d}: ${score.distances.filter((x) => x === d).length}`).join(', ')}`,
    ...Object.entries(web.skipped).map(([reason, count]) => `  not labeled: ${count} ${reason}`),
    ...score.wrongLinks.map((link) => `  wrong: ${link}`),
    ...score.unlabeledLinks.map((link) => `  unlabeled: ${link}`),
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * `node bench/dist/dedup/near-duplicate-bench.js [set...]`: the test web, the noisy news site, the
 * corpus variants and the hard sets made from the fixtures (reprints under their own headline, short
 * items in templates, long pages of one site); the names given, or all.
 */
async function main(): Promise<void> {
  const only = process.argv.slice(2);
  for (const [name, load] of [
    ['test web (full profile)', () => testWebLabeled(1)],
    ['noisy news site and wire', () => noisyNewsLabeled(1)],
    ['article-extraction benchmark variants', async () => corpusLabeled()],
    ['reprints under their own headline', async () => reprintsUnderOwnHeadline(loadArticleCorpus())],
    ['short items in templates', async () => shortItemsInTemplates(loadArticleCorpus())],
    ['long pages of one site', async () => longPagesOfOneSite(loadFixtureBedPages())],
  ] as const) {
    if (only.length > 0 && !only.some((word) => name.includes(word))) continue;
    const web = await load();
    process.stdout.write(formatNearDuplicateScore(name, web, await evaluateNearDuplicates(web)));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
