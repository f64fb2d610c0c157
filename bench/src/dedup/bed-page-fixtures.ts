import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';

/** fixtures/realweb-bed-pages: pages of the real-web bed the long-page set is made from (README.md there). */
export const bedPagesDir = fileURLToPath(new URL('../../../fixtures/realweb-bed-pages/', import.meta.url));
const FILE = 'bed-pages.json.br';

/** A page of the real-web bed (Debian's Python, PostgreSQL and Git documentation), as nginx serves it. */
export interface FixtureBedPage {
  url: string;
  html: string;
}

export function loadFixtureBedPages(): FixtureBedPage[] {
  return JSON.parse(brotliDecompressSync(readFileSync(join(bedPagesDir, FILE))).toString('utf8')) as FixtureBedPage[];
}

/** Brotli with a 16 MB window: the pages of one site share their template across the whole file. */
export function writeFixtureBedPages(pages: readonly FixtureBedPage[]): number {
  const json = Buffer.from(JSON.stringify(pages));
  const packed = brotliCompressSync(json, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_LGWIN]: 24,
      [constants.BROTLI_PARAM_SIZE_HINT]: json.length,
    },
  });
  writeFileSync(join(bedPagesDir, FILE), packed);
  return packed.length;
}
