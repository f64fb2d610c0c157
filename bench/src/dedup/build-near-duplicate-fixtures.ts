import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadArticleCorpus } from '../article-corpus.js';
import { writeFixture, type FixtureArticle, type FixtureBedPage } from './near-duplicate-fixtures.js';

/** What the long-page set needs of each bed site: long pages of one generator, and the three pages crawls joined wrongly. */
const BED_PAGES: Record<string, string[]> = {
  python: [
    ...['3.0', '3.1', '3.2', '3.3', '3.4', '3.5', '3.6', '3.7', '3.8', '3.9', '3.10', '3.11'].map(
      (version) => `whatsnew/${version}.html`,
    ),
    ...['os', 'stdtypes', 'typing', 'datetime'].map((name) => `library/${name}.html`),
    ...['search', 'genindex', 'genindex-P', 'genindex-S', 'genindex-all'].map((name) => `${name}.html`),
  ],
  postgres: [
    'release-15.html',
    ...Array.from({ length: 20 }, (_, i) => `release-15-${i + 1}.html`),
    ...['select', 'createtable', 'altertable', 'createindex'].map((name) => `sql-${name}.html`),
    'functions-json.html',
  ],
  git: [
    'diff',
    'diff-index',
    'diff-files',
    'diff-tree',
    'log',
    'show',
    'rev-list',
    'whatchanged',
    'format-patch',
    'fetch',
    'pull',
    'push',
    'merge',
    'rebase',
  ].map((command) => `git-${command}.html`),
};

/** Scripts, styles and comments weigh most of a news page's bytes and none of its text. */
function withoutScripts(html: string): string {
  return html.replace(/<(script|style|noscript|svg|template)\b[\s\S]*?<\/\1\s*>/gi, '').replace(/<!--[\s\S]*?-->/g, '');
}

/**
 * `node bench/dist/dedup/build-near-duplicate-fixtures.js --bed <repo>/.stack/realweb/bed.json`:
 * writes bench/fixtures/near-duplicates from ../shared/corpora (the article-extraction benchmark)
 * and the installed real-web bed. Run it again only to change what the sets are made from.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { bed: { type: 'string' } } });
  if (!values.bed) throw new Error('--bed <path of the real-web bed description, .stack/realweb/bed.json>');
  const articles: FixtureArticle[] = loadArticleCorpus().map((page) => ({
    id: page.id,
    url: page.url,
    html: withoutScripts(page.html),
    truth: page.truth,
  }));
  const bed = JSON.parse(readFileSync(values.bed, 'utf8')) as {
    sites: { name: string; origin: string; root: string }[];
  };
  const pages: FixtureBedPage[] = bed.sites.flatMap((site) =>
    (BED_PAGES[site.name] ?? []).map((path) => ({
      url: `${site.origin}/${path}`,
      html: readFileSync(join(site.root, path), 'utf8'),
    })),
  );
  process.stdout.write(
    `articles.json.br: ${articles.length} pages, ${writeFixture('articles.json.br', articles)} bytes\n`,
  );
  process.stdout.write(`bed-pages.json.br: ${pages.length} pages, ${writeFixture('bed-pages.json.br', pages)} bytes\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
