import { cdxTimestamp, isRedirectStatus, type CdxjFields, type PageStore, type StoredPage } from '@crawler/core';
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

/**
 * A redirect replays as a redirect: Chromium, sent to the replay of the longest redirect chain the
 * archive holds, is redirected hop by hop (each replayed with its status) and ends on the replay of
 * the page the chain leads to, with that page's title, as it does on the live site.
 */
export async function expectRedirectReplayedAsRedirect(
  browser: Browser,
  replay: Replay,
  captures: CdxjFields[],
  store: PageStore,
): Promise<void> {
  let longest: { capture: CdxjFields; hops: { url: string; status: number }[]; target: StoredPage } | null = null;
  for (const capture of captures.filter((candidate) => isRedirectStatus(Number(candidate.status)))) {
    const hops: { url: string; status: number }[] = [];
    let url = capture.url;
    for (let [redirect] = await store.getRedirects(url); redirect; [redirect] = await store.getRedirects(url)) {
      if (hops.some((hop) => hop.url === redirect!.location) || hops.length > 10) break;
      hops.push({ url, status: redirect.httpStatus });
      url = redirect.location;
    }
    const [target] = await store.get(url);
    if (target && target.title && hops.length > (longest?.hops.length ?? 0)) longest = { capture, hops, target };
  }
  expect(longest, 'a redirect in the index that leads to a stored page').not.toBeNull();
  const { capture, hops, target } = longest!;
  const said = `${capture.url} -> ${target.url} at ${replay.prefix}`;
  const page = await browser.newPage();
  try {
    const live = await page.goto(capture.url, { waitUntil: 'load' });
    expect(live?.url(), said).toBe(target.url);
    const liveTitle = await page.title();
    const replayed = await page.goto(`${replay.prefix}/${cdxTimestamp(Number(capture.fetchedAt))}/${capture.url}`, {
      waitUntil: 'load',
    });
    expect(replayed?.status(), said).toBe(200);
    expect(page.url(), said).toMatch(new RegExp(`^${escaped(replay.prefix)}/\\d{14}[a-z_]*/${escaped(target.url)}$`));
    expect(await page.title(), said).toBe(target.title);
    expect(target.title, said).toBe(liveTitle);
    // Every hop was answered by the replay with the status the site gave it, and nothing else.
    const statuses: number[] = [];
    for (let request = replayed!.request().redirectedFrom(); request; request = request.redirectedFrom())
      statuses.unshift((await request.response())!.status());
    expect(statuses, said).toEqual(hops.map((hop) => hop.status));
  } finally {
    await page.close();
  }
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
