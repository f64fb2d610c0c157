import { execFile, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stackAddresses, repoRoot } from '../reliability/support/stack-env.js';
import { dropNames, freshNames } from '../reliability/support/stack-names.js';
import { tallyBedScore } from '../../bench/src/realweb/bed-tally.js';
import { waitFor } from '@crawler/core/testing';
import { cdxjCaptureKind, type CdxjFields } from '@crawler/core';
import { indexedCaptures, WarcPageStore } from '@crawler/embedded';
import { expectReplayedAsServed, expectRevisitReplayedAsOriginal } from '../archive/replayed-page.js';
import { expectRequestBesideEachResponse } from '../archive/request-records.js';
import { launchReplayBrowser, replayWacz, waczValidate, warcioCheck } from '../support/replay-tools.js';
import { createScratchDir, removeScratchDir } from '../support/scratch-dir.js';
import { bedTruth, loadBed, scoreCrawl, type BedScore, type CrawlStores } from '../../bench/src/realweb/bed-client.js';

const run = promisify(execFile);

/**
 * `crawler run` on the real-web bed, embedded and on the stack, as test/realweb/README.md shows
 * it, scored by bed.py against its truth: every reachable page requested once and kept once,
 * robots.txt obeyed, nothing requested the truth does not know.
 */
describe('crawler run on the real-web bed', () => {
  const bed = loadBed();
  let scratch: string;
  let truthFile: string;
  beforeAll(async () => {
    scratch = createScratchDir('realweb-crawl');
    truthFile = join(scratch, 'truth.json');
    await bedTruth(truthFile);
  });
  afterAll(() => removeScratchDir(scratch));

  /** The command line of a crawl as test/realweb/README.md shows it, with a User-Agent token of its own. */
  function crawlArgs(token: string, extraArgs: string[]): string[] {
    const args = [join(repoRoot, 'packages/cli/dist/main.js'), 'run', '--quiet', '--json'];
    for (const site of bed.sites) args.push('--seed', `${site.origin}/`);
    args.push('--allow-address', '127.0.0.1', '--delay-ms', '0', '--own-site', '--per-host', '4', '--concurrency', '8');
    args.push('--user-agent', `${token}/1.0 (+http://127.0.0.1/test)`, ...extraArgs);
    return args;
  }

  /** The User-Agent's product token finds a crawl's lines in nginx's log, shared with every other crawl. */
  const newToken = (label: string) => `realwebtest-${label}-${randomUUID().slice(0, 8)}`;

  async function crawl(
    label: string,
    extraArgs: string[],
    env: Record<string, string> = {},
    token = newToken(label),
  ): Promise<string> {
    const { stdout } = await run(process.execPath, crawlArgs(token, extraArgs), {
      env: { ...process.env, ...env },
      timeout: 400_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    expect((JSON.parse(stdout) as { stopReason: string }).stopReason).toBe('complete');
    return token;
  }

  /** Every kind of mistake bed.py lists must be empty; a failure names each kind with its first URLs. */
  function expectRightAgainstTheTruth(score: BedScore): void {
    expect(score.truthPages).toBeGreaterThan(1000);
    expect(tallyBedScore(score).examples).toEqual({});
  }

  it('embedded: WARC files and the link base folder; a month later one run re-checks every page with a 304', async () => {
    const out = join(scratch, 'embedded');
    const token = await crawl('embedded', ['--out', out]);
    const first = await scoreCrawl(truthFile, token, { out });
    expectRightAgainstTheTruth(first);
    await expectReplayable(out);
    // Every page is due again after 30 days at most: one run asks for each with its validators.
    const later = await crawl('recrawl', ['--out', out, '--clock-offset', '31d']);
    const recrawl = await scoreCrawl(truthFile, later, { out });
    expect(recrawl.requestedTwice).toEqual([]);
    expect(recrawl.truthPagesRequested + first.duplicates).toBe(recrawl.truthPages);
    expect(recrawl.conditionalRequests).toBe(recrawl.truthPagesRequested);
    expect(recrawl.notModified).toBe(recrawl.truthPagesRequested);
    expect(recrawl.disallowedRequested).toEqual([]);
    expect(recrawl.outsideTruthRequested).toEqual([]);
    expect(recrawl.storedTwice).toEqual([]);
  }, 600_000);

  it('embedded, killed with -9 mid-crawl and run again: nothing lost, nothing stored twice, only leased URLs fetched again', async () => {
    const out = join(scratch, 'killed');
    const token = newToken('killed');
    const child = spawn(process.execPath, crawlArgs(token, ['--out', out]), { stdio: 'ignore' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await waitFor(() => indexedCaptures(join(out, 'warc')).length > 700, 300_000, 100);
    child.kill('SIGKILL');
    await exited;
    const leasedAtKill = leasedUrls(join(out, 'linkbase'), Date.now());
    await crawl('killed', ['--out', out], {}, token);
    const score = await scoreCrawl(truthFile, token, { out });
    expect(score.notRequested).toEqual([]);
    expect(score.notStored).toEqual([]);
    expect(score.storedTwice).toEqual([]);
    expect(score.groupsStoredTwice).toEqual([]);
    expect(score.falseDuplicates).toEqual([]);
    expect(score.disallowedRequested).toEqual([]);
    expect(score.requestedTwice.filter((url) => !leasedAtKill.has(url))).toEqual([]);
  }, 600_000);

  describe('on the stack', () => {
    const stack = stackAddresses();
    const names = freshNames('realweb');
    afterAll(async () => {
      for (const problem of await dropNames(stack, names))
        process.stderr.write(`cleanup of ${names.CRAWLER_TOPIC_PREFIX}*: ${problem}\n`);
    }, 60_000);

    it('HBase rows and Elasticsearch documents; the archive exported from HBase replays', async () => {
      const env = { REDIS_CLUSTER_NODES: '', ...stack, ...names };
      const token = await crawl('stack', ['--stack', '--out', join(scratch, 'stack')], env);
      const stores: CrawlStores = {
        elasticsearchUrl: stack.ELASTICSEARCH_URL,
        index: names.ELASTICSEARCH_INDEX,
        hbaseRestUrl: stack.HBASE_REST_URL,
        table: names.HBASE_TABLE,
      };
      expectRightAgainstTheTruth(await scoreCrawl(truthFile, token, stores));
      // Laid out as an embedded crawl's folder keeps its WARC files, so both are checked alike.
      const archive = join(scratch, 'stack-archive');
      mkdirSync(archive);
      await run(
        process.execPath,
        [join(repoRoot, 'packages/cli/dist/main.js'), 'export', 'warc', '--from-stack', join(archive, 'warc')],
        { env: { ...process.env, ...env } },
      );
      await expectReplayable(archive);
    }, 600_000);
  });
});

/**
 * The crawl as a web archive: warcio finds every digest right and a request record beside each
 * response, its WACZ passes `wacz validate`, and pywb replays it into Chromium from the crawler's
 * own index: a page of each site with the title and main text nginx serves, and a duplicate's
 * revisit as its original.
 */
async function expectReplayable(out: string): Promise<void> {
  const warc = join(out, 'warc');
  const files = readdirSync(warc)
    .filter((name) => name.endsWith('.warc.gz'))
    .map((name) => join(warc, name));
  const check = warcioCheck(files);
  expect(check.code, check.output.slice(-2000)).toBe(0);
  expect(check.failed).toBe(0);
  expectRequestBesideEachResponse(files);
  const wacz = `${out}.wacz`;
  await run(process.execPath, [join(repoRoot, 'packages/cli/dist/main.js'), 'export', 'wacz', out, wacz]);
  const validation = waczValidate(wacz);
  expect(validation.code, validation.output).toBe(0);
  const replay = await replayWacz(wacz);
  const browser = await launchReplayBrowser();
  const store = await WarcPageStore.open(warc, { readOnly: true });
  try {
    const captures = indexedCaptures(warc);
    const bySite = new Map<string, CdxjFields>();
    for (const capture of captures)
      if (
        cdxjCaptureKind(capture) === 'page' &&
        capture.mime === 'text/html' &&
        !bySite.has(new URL(capture.url).origin)
      )
        bySite.set(new URL(capture.url).origin, capture);
    expect(bySite.size).toBe(3);
    for (const capture of bySite.values())
      await expectReplayedAsServed(browser, replay, capture, (await store.get(capture.url))[0]!);
    await expectRevisitReplayedAsOriginal(browser, replay, captures, store);
  } finally {
    await store.close();
    await browser.close();
    await replay.close();
  }
}

/** URLs the embedded link base held a lease on at `now`, read from its files (the last line of a record wins). */
function leasedUrls(dir: string, now: number): Set<string> {
  const records = new Map<string, { url: string; leaseUntil: number }>();
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .sort((a, b) => Number(b.includes('snapshot')) - Number(a.includes('snapshot')) || a.localeCompare(b));
  for (const name of files)
    for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) {
      try {
        const record = JSON.parse(line) as { id: string; url: string; leaseUntil: number };
        records.set(record.id, record);
      } catch {
        // a torn last line, cut by the kill
      }
    }
  return new Set([...records.values()].filter((record) => record.leaseUntil > now).map((record) => record.url));
}
