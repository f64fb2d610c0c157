import { cdxTimestamp, type CdxjFields, type PageStore, type StoredPage } from '@crawler/core';
import type { Browser } from 'playwright-core';
import { expect } from 'vitest';
import type { Replay } from '../support/replay-tools.js';

/** The first words of a main text, whitespace folded: what a reader sees first. */
function opening(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 80);
}

/**
 * A capture replayed by pywb in Chromium shows what the live site serves: the same title, and
 * the page's main text (as the crawler extracted it) in the rendered document.
 */
export async function expectReplayedAsServed(
  browser: Browser,
  replay: Replay,
  capture: CdxjFields,
  stored: StoredPage,
  live: { title: string; text: string } | null = null,
): Promise<void> {
  const page = await browser.newPage();
  try {
    let served = live;
    if (!served) {
      await page.goto(capture.url, { waitUntil: 'load' });
      served = { title: await page.title(), text: await page.innerText('body') };
    }
    const replayed = await page.goto(`${replay.prefix}/${cdxTimestamp(Number(capture.fetchedAt))}/${capture.url}`, {
      waitUntil: 'load',
    });
    const said = `${capture.url} (${capture.mime}) at ${replay.prefix}`;
    expect(replayed?.status(), said).toBe(200);
    expect(await page.title(), said).toBe(served.title);
    expect(stored.title, said).toBe(served.title);
    const text = await page.innerText('body');
    const first = opening(stored.text);
    expect(first.length, said).toBeGreaterThan(20);
    expect(text.replace(/\s+/g, ' '), said).toContain(first);
    expect(served.text.replace(/\s+/g, ' '), said).toContain(first);
  } finally {
    await page.close();
  }
}

/** A revisit record replays as the capture it refers to: the original's title and main text. */
export async function expectRevisitReplayedAsOriginal(
  browser: Browser,
  replay: Replay,
  captures: CdxjFields[],
  store: PageStore,
): Promise<void> {
  const revisit = captures.find((capture) => capture.mime === 'warc/revisit');
  expect(revisit, 'a revisit record in the index').toBeDefined();
  const [entry] = await store.getRevisits(revisit!.url);
  const [original] = await store.get(entry!.refersToUrl, { versions: 100 });
  await expectReplayedAsServed(browser, replay, revisit!, original!);
}
