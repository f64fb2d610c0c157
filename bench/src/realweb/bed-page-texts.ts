import { readFileSync } from 'node:fs';
import type { ParsedContent } from '@crawler/linkextract';
import { createDefaultPageParser } from '../default-page-parser.js';
import type { BedTruth } from './bed-client.js';

/** A page of the real-web bed's truth (test/realweb/bed.py truth): its URL and the file nginx serves for it. */
export type BedPage = Pick<BedTruth['pages'][number], 'url' | 'file'>;

export interface BedPageText {
  text: string;
  textMethod: string;
  /** Wall time of the page parser on this page, best of the rounds, ms. */
  ms: number;
}

/**
 * The main text of each bed page as a crawl stores it: the file's bytes through link
 * extraction's page parser (createDefaultPageParser), served as nginx serves them (text/html, no
 * charset). Each page is parsed `rounds` times and the fastest
 * counts, so a neighbour's burst on a shared machine does not read as extraction cost.
 */
export async function extractBedTexts(pages: readonly BedPage[], rounds = 1): Promise<Map<string, BedPageText>> {
  const parse = createDefaultPageParser();
  const texts = new Map<string, BedPageText>();
  for (const page of pages) {
    const input = {
      body: readFileSync(page.file),
      finalUrl: page.url,
      depth: 1,
      mediaType: 'text/html',
      charset: null,
      headers: {},
    };
    let best = Infinity;
    let parsed: ParsedContent | null = null;
    for (let round = 0; round < Math.max(1, rounds); round++) {
      const started = performance.now();
      parsed = await parse(input);
      best = Math.min(best, performance.now() - started);
    }
    texts.set(page.url, { text: parsed!.text, textMethod: parsed!.textMethod, ms: best });
  }
  return texts;
}
