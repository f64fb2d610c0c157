import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { writeFixtureBedPages, type FixtureBedPage } from './bed-page-fixtures.js';

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

/**
 * `node bench/dist/dedup/build-bed-page-fixtures.js --bed <repo>/.stack/realweb/bed.json`:
 * writes fixtures/realweb-bed-pages from the installed real-web bed. Run it again only to change
 * what the long-page set is made from.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { bed: { type: 'string' } } });
  if (!values.bed) throw new Error('--bed <path of the real-web bed description, .stack/realweb/bed.json>');
  const bed = JSON.parse(readFileSync(values.bed, 'utf8')) as {
    sites: { name: string; origin: string; root: string }[];
  };
  const pages: FixtureBedPage[] = bed.sites.flatMap((site) =>
    (BED_PAGES[site.name] ?? []).map((path) => ({
      url: `${site.origin}/${path}`,
      html: readFileSync(join(site.root, path), 'utf8'),
    })),
  );
  process.stdout.write(`bed-pages.json.br: ${pages.length} pages, ${writeFixtureBedPages(pages)} bytes\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
