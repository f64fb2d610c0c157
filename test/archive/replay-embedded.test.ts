import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CdxjFields } from '@crawler/core';
import { indexedCaptures, WarcPageStore } from '@crawler/embedded';
import { startTestWeb, type TestWeb } from '@crawler/testweb';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawler, TEST_WEB_ENV } from './crawler-cli.js';
import { createScratchDir, removeScratchDir } from '../support/scratch-dir.js';
import {
  expectRedirectReplayedAsRedirect,
  expectReplayedAsServed,
  expectRevisitReplayedAsOriginal,
} from './replayed-page.js';
import { expectRequestBesideEachResponse } from './request-records.js';
import { launchReplayBrowser, replayWacz, waczValidate, warcioCheck, type Replay } from '../support/replay-tools.js';

/**
 * An embedded crawl of the test web handed over as web archives hand theirs: warcio finds every
 * digest right, py-wacz validates the WACZ, and pywb replays it from the crawler's own index into
 * Chromium: pages with the title and main text the live site serves, a duplicate's revisit record
 * with its original's content, a redirect chain as redirects to the page it leads to.
 */
describe('an embedded crawl as a web archive', () => {
  let web: TestWeb;
  let scratch: string;
  let out: string;
  let wacz: string;
  let replay: Replay | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    web = await startTestWeb({ pagesPerHost: 30 });
    scratch = createScratchDir('replay-embedded');
    out = join(scratch, 'crawl');
    wacz = join(scratch, 'crawl.wacz');
    await crawler(
      [
        'run',
        ...web.seeds.flatMap((seed) => ['--seed', seed]),
        '--max-depth',
        String(web.groundTruth().maxDepth),
        '--out',
        out,
        '--quiet',
      ],
      TEST_WEB_ENV,
    );
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await replay?.close();
    await web?.close();
    removeScratchDir(scratch);
  }, 60_000);

  it('passes warcio check: every block and payload digest right, revisits and request records included', () => {
    const files = readdirSync(join(out, 'warc'))
      .filter((name) => name.endsWith('.warc.gz'))
      .map((name) => join(out, 'warc', name));
    const check = warcioCheck(files);
    expect(check.code, check.output).toBe(0);
    expect(check.failed).toBe(0);
    expect(check.passed).toBeGreaterThan(200);
    expect(check.output).toContain('(revisit)');
    expectRequestBesideEachResponse(files);
  });

  it('exports a WACZ that wacz validate accepts', async () => {
    const said = await crawler(['export', 'wacz', out, wacz]);
    expect(said).toMatch(/^wrote .*crawl\.wacz: \d+ captures \(\d+ pages\) from 1 WARC files, \d+ bytes\n$/);
    const validation = waczValidate(wacz);
    expect(validation.code, validation.output).toBe(0);
    expect(validation.output).toContain('Validation succeeded');
  }, 60_000);

  it('replays in Chromium through pywb: pages as served, a revisit as its original, a redirect as a redirect', async () => {
    replay = await replayWacz(wacz);
    browser = await launchReplayBrowser();
    const captures = indexedCaptures(join(out, 'warc'));
    const store = await WarcPageStore.open(join(out, 'warc'), { readOnly: true });
    try {
      const articles = captures.filter(
        (capture) => capture.mime === 'text/html' && /\/(article|docs|post)/.test(capture.url),
      );
      const byHost = new Map<string, CdxjFields>();
      for (const capture of articles)
        byHost.set(new URL(capture.url).host, byHost.get(new URL(capture.url).host) ?? capture);
      expect(byHost.size).toBeGreaterThanOrEqual(3);
      for (const capture of byHost.values()) {
        const [stored] = await store.get(capture.url);
        await expectReplayedAsServed(browser, replay, capture, stored!);
      }
      await expectRevisitReplayedAsOriginal(browser, replay, captures, store);
      await expectRedirectReplayedAsRedirect(browser, replay, captures, store);
    } finally {
      await store.close();
    }
  }, 90_000);
});
