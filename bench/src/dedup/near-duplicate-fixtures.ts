import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';

/** bench/fixtures/near-duplicates: real pages the hard near-duplicate sets are made from (README.md there). */
export const nearDuplicateFixtureDir = fileURLToPath(new URL('../../fixtures/near-duplicates/', import.meta.url));

/** A page of the article-extraction benchmark, scripts and styles left out, with its gold article body. */
export interface FixtureArticle {
  id: string;
  url: string;
  html: string;
  truth: string;
}

/** A page of the real-web bed (Debian's Python, PostgreSQL and Git documentation), as nginx serves it. */
export interface FixtureBedPage {
  url: string;
  html: string;
}

export function loadFixtureArticles(): FixtureArticle[] {
  return readFixture('articles.json.br') as FixtureArticle[];
}

export function loadFixtureBedPages(): FixtureBedPage[] {
  return readFixture('bed-pages.json.br') as FixtureBedPage[];
}

function readFixture(name: string): unknown {
  return JSON.parse(brotliDecompressSync(readFileSync(join(nearDuplicateFixtureDir, name))).toString('utf8'));
}

/** Brotli with a 16 MB window: the pages of one site share their template across the whole file. */
export function writeFixture(name: string, value: unknown): number {
  const json = Buffer.from(JSON.stringify(value));
  const packed = brotliCompressSync(json, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_LGWIN]: 24,
      [constants.BROTLI_PARAM_SIZE_HINT]: json.length,
    },
  });
  writeFileSync(join(nearDuplicateFixtureDir, name), packed);
  return packed.length;
}
