import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bedTruth, scoreTexts, type BedTruth } from '../../bench/src/realweb/bed-client.js';
import { extractBedTexts } from '../../bench/src/realweb/bed-page-texts.js';
import { createScratchDir, removeScratchDir } from '../support/scratch-dir.js';

/**
 * The main text of every page of the real-web bed against its documentation generator's content
 * area (bed.py recall). It runs the bed's files through link extraction's page parser, the code
 * the extraction stage runs on a fetched body, rather than crawling: nginx serves those files as
 * they are (text/html, no charset), so the stored text of a crawl is this text, and the score
 * does not wait on a crawl nor depend on what dedup keeps. bed-crawl.int.test.ts crawls the bed.
 */
describe('main text of the real-web bed', () => {
  let scratch: string;
  let truthFile: string;
  let truth: BedTruth;
  beforeAll(async () => {
    scratch = createScratchDir('realweb-main-text');
    truthFile = join(scratch, 'truth.json');
    truth = await bedTruth(truthFile);
  }, 120_000);
  afterAll(() => removeScratchDir(scratch));

  it('holds at least 95% of the content area’s words on 98% of the pages, and few words from outside it', async () => {
    const texts = await extractBedTexts(truth.pages);
    const textsFile = join(scratch, 'texts.json');
    writeFileSync(textsFile, JSON.stringify(Object.fromEntries([...texts].map(([url, page]) => [url, page.text]))));
    const score = await scoreTexts(truthFile, textsFile, 40);
    expect(score.missing).toEqual([]);
    expect(score.pages).toBeGreaterThan(1800);
    const worst = (score.worst ?? []).map((page) => `${page.recall.toFixed(3)} ${page.url}`).join('\n');
    expect(score.shareAtThreshold, `pages of lowest recall:\n${worst}`).toBeGreaterThanOrEqual(0.98);
    // Not reached by taking the navigation too: words of the text that are in the content area.
    expect(score.meanPrecision).toBeGreaterThanOrEqual(0.97);
  }, 300_000);
});
