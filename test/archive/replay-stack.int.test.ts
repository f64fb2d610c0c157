import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { WarcPageStore, indexedCaptures } from '@crawler/embedded';
import { startTestWeb, type TestWeb } from '@crawler/testweb';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stackAddresses } from '../reliability/support/stack-env.js';
import { dropNames, freshNames } from '../reliability/support/stack-names.js';
import { launchReplayBrowser, replayWacz, waczValidate, warcioCheck, type Replay } from '../support/replay-tools.js';
import { createScratchDir, removeScratchDir } from '../support/scratch-dir.js';
import { crawler, TEST_WEB_ENV } from './crawler-cli.js';
import {
  expectRedirectReplayedAsRedirect,
  expectReplayedAsServed,
  expectRevisitReplayedAsOriginal,
} from './replayed-page.js';
import { expectRequestBesideEachResponse } from './request-records.js';

/**
 * The distributed mode hands its archive over too: a crawl of the test web on the stack keeps its
 * pages, revisits and the redirects it followed in HBase; `crawler export warc --from-stack` writes
 * them as WARC files warcio finds right, and `crawler export wacz --from-stack` as a WACZ that
 * py-wacz validates and pywb replays into Chromium.
 */
describe('a crawl on the stack as a web archive', () => {
  const stack = stackAddresses();
  const names = freshNames('archive');
  const env = { ...TEST_WEB_ENV, REDIS_CLUSTER_NODES: '', ...stack, ...names };
  let web: TestWeb;
  let scratch: string;
  let replay: Replay | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    web = await startTestWeb({ pagesPerHost: 30 });
    scratch = createScratchDir('replay-stack');
    await crawler(
      [
        'run',
        '--stack',
        ...web.seeds.flatMap((seed) => ['--seed', seed]),
        '--max-depth',
        String(web.groundTruth().maxDepth),
        '--out',
        join(scratch, 'crawl'),
        '--quiet',
      ],
      env,
    );
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await replay?.close();
    await web?.close();
    removeScratchDir(scratch);
    for (const problem of await dropNames(stack, names))
      process.stderr.write(`cleanup of ${names.CRAWLER_TOPIC_PREFIX}*: ${problem}\n`);
  }, 60_000);

  it('exports WARC files from HBase that warcio check passes, a request record beside each response, for the whole crawl and for a time range', async () => {
    const folder = join(scratch, 'warc');
    const said = await crawler(['export', 'warc', '--from-stack', '--job', 'default', folder], env);
    const [, pages, revisits, redirects] =
      /exported (\d+) page versions, (\d+) revisits and (\d+) redirects/.exec(said) ?? [];
    expect(Number(pages)).toBeGreaterThan(100);
    expect(Number(revisits)).toBeGreaterThan(0);
    expect(Number(redirects)).toBeGreaterThan(0);
    const files = readdirSync(folder).filter((name) => name.endsWith('.warc.gz'));
    const check = warcioCheck(files.map((name) => join(folder, name)));
    expect(check.code, check.output).toBe(0);
    expect(check.failed).toBe(0);
    expect(check.passed).toBeGreaterThan(2 * Number(pages));
    expect(indexedCaptures(folder)).toHaveLength(Number(pages) + Number(revisits) + Number(redirects));
    expectRequestBesideEachResponse(files.map((name) => join(folder, name)));
    // Nothing was fetched before 2000 or will be after 2100.
    const none = await crawler(['export', 'warc', '--from-stack', '--end', '2000-01-01', join(scratch, 'none')], env);
    expect(none).toMatch(/exported 0 page versions, 0 revisits and 0 redirects/);
    const other = await crawler(
      ['export', 'warc', '--from-stack', '--job', 'no-such-job', join(scratch, 'other')],
      env,
    );
    expect(other).toMatch(/exported 0 page versions, 0 revisits and 0 redirects/);
  }, 120_000);

  it('exports a WACZ from HBase that wacz validate accepts and pywb replays into Chromium, a redirect as a redirect', async () => {
    const wacz = join(scratch, 'stack.wacz');
    await crawler(['export', 'wacz', '--from-stack', wacz], env);
    const validation = waczValidate(wacz);
    expect(validation.code, validation.output).toBe(0);
    replay = await replayWacz(wacz);
    browser = await launchReplayBrowser();
    const folder = join(scratch, 'warc');
    const captures = indexedCaptures(folder);
    const store = await WarcPageStore.open(folder, { readOnly: true });
    try {
      const article = captures.find(
        (capture) => capture.mime === 'text/html' && /\/(article|docs|post)/.test(capture.url),
      );
      await expectReplayedAsServed(browser, replay, article!, (await store.get(article!.url))[0]!);
      await expectRevisitReplayedAsOriginal(browser, replay, captures, store);
      await expectRedirectReplayedAsRedirect(browser, replay, captures, store);
    } finally {
      await store.close();
    }
  }, 120_000);
});
