import { parseCrawlJob } from '@crawler/core';
import { createPageParser, decodeText, extractLimitsOf, loadLinkextractConfig, type PageInput } from '@crawler/linkextract';
import { Parser } from 'htmlparser2';

export interface SpeedSample {
  name: string;
  pages: number;
  megabytes: number;
  /** Decode + a bare htmlparser2 pass with no-op callbacks. */
  bare: { pagesPerSecond: number };
  /** Decode + link extraction's full page parser: links, scope, main text, metadata, fields. */
  extraction: { pagesPerSecond: number };
  /** extraction / bare. */
  ratio: number;
}

const ROUNDS = 5;

/**
 * Pages/s of link extraction against a bare htmlparser2 pass over the same decoded pages, in
 * the same process, alternating rounds (median of each) so both see the same machine state.
 */
export async function measureExtractionSpeed(name: string, pages: readonly PageInput[]): Promise<SpeedSample> {
  const config = loadLinkextractConfig({ env: {} });
  const parse = createPageParser({ job: parseCrawlJob({ scope: { mode: 'any' } }), limits: extractLimitsOf(config), followNofollow: false, maxInputBytes: config.maxInputBytes });
  const bare = () => {
    for (const page of pages) {
      const parser = new Parser({ onopentag() {}, ontext() {}, onclosetag() {} }, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
      parser.end(decodeText(page.body, page.charset).text);
    }
  };
  const extract = async () => {
    for (const page of pages) await parse(page);
  };
  await extract();
  bare();
  const bareTimes: number[] = [];
  const extractTimes: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    let started = performance.now();
    bare();
    bareTimes.push(performance.now() - started);
    started = performance.now();
    await extract();
    extractTimes.push(performance.now() - started);
  }
  const perSecond = (ms: number) => Math.round((pages.length / ms) * 1000);
  const bareRate = perSecond(median(bareTimes));
  const extractRate = perSecond(median(extractTimes));
  return {
    name,
    pages: pages.length,
    megabytes: Number((pages.reduce((sum, page) => sum + page.body.length, 0) / 1024 / 1024).toFixed(1)),
    bare: { pagesPerSecond: bareRate },
    extraction: { pagesPerSecond: extractRate },
    ratio: Number((extractRate / bareRate).toFixed(2)),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
