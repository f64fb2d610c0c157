import { decodeText } from '@crawler/core';
import type { PageInput } from '@crawler/linkextract';
import { Parser } from 'htmlparser2';
import { createDefaultPageParser } from './default-page-parser.js';

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

const ROUNDS = 9;

function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}
/** Small page sets are parsed several times per round so a round is long enough to time. */
const MIN_ROUND_MS = 200;

/**
 * Pages/s of link extraction against a bare htmlparser2 pass over the same decoded pages, in
 * the same process, in alternating rounds. Time is this process's CPU time (user + system), and
 * the fastest round of each side counts: on a shared machine wall time and slow rounds measure
 * the neighbours, not the code. The work is single-threaded, so CPU pages/s is pages/s on one
 * idle core.
 */
export async function measureExtractionSpeed(name: string, pages: readonly PageInput[]): Promise<SpeedSample> {
  const parse = createDefaultPageParser();
  let repeat = 1;
  const bare = () => {
    for (let r = 0; r < repeat; r++) {
      for (const page of pages) {
        const parser = new Parser(
          { onopentag() {}, ontext() {}, onclosetag() {} },
          { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
        );
        parser.end(decodeText(page.body, page.charset).text);
      }
    }
  };
  const extract = async () => {
    for (let r = 0; r < repeat; r++) for (const page of pages) await parse(page);
  };
  await extract();
  const started = cpuMs();
  bare();
  repeat = Math.max(1, Math.ceil(MIN_ROUND_MS / Math.max(cpuMs() - started, 1)));
  let bareBest = Infinity;
  let extractBest = Infinity;
  for (let round = 0; round < ROUNDS; round++) {
    let roundStart = cpuMs();
    bare();
    bareBest = Math.min(bareBest, cpuMs() - roundStart);
    roundStart = cpuMs();
    await extract();
    extractBest = Math.min(extractBest, cpuMs() - roundStart);
  }
  const perSecond = (ms: number) => Math.round(((pages.length * repeat) / ms) * 1000);
  const bareRate = perSecond(bareBest);
  const extractRate = perSecond(extractBest);
  return {
    name,
    pages: pages.length,
    megabytes: Number((pages.reduce((sum, page) => sum + page.body.length, 0) / 1024 / 1024).toFixed(1)),
    bare: { pagesPerSecond: bareRate },
    extraction: { pagesPerSecond: extractRate },
    ratio: Number((extractRate / bareRate).toFixed(2)),
  };
}
