import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stackAddresses, repoRoot } from '../reliability/support/stack-env.js';
import { dropNames, freshNames } from '../reliability/support/stack-names.js';
import { tallyBedScore } from '../../bench/src/realweb/bed-tally.js';
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

  async function crawl(label: string, extraArgs: string[], env: Record<string, string> = {}): Promise<string> {
    // The User-Agent's product token finds this crawl's lines in nginx's log, shared with every other crawl.
    const token = `realwebtest-${label}-${randomUUID().slice(0, 8)}`;
    const args = [join(repoRoot, 'packages/cli/dist/main.js'), 'run', '--quiet', '--json'];
    for (const site of bed.sites) args.push('--seed', `${site.origin}/`);
    args.push('--allow-address', '127.0.0.1', '--delay-ms', '0', '--per-host', '4', '--concurrency', '8');
    args.push('--user-agent', `${token}/1.0 (+http://127.0.0.1/test)`, ...extraArgs);
    const { stdout } = await run(process.execPath, args, {
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

  it('embedded: WARC files and the link base folder', async () => {
    const out = join(scratch, 'embedded');
    const token = await crawl('embedded', ['--out', out]);
    expectRightAgainstTheTruth(await scoreCrawl(truthFile, token, { out }));
  }, 480_000);

  describe('on the stack', () => {
    const stack = stackAddresses();
    const names = freshNames('realweb');
    afterAll(async () => {
      for (const problem of await dropNames(stack, names))
        process.stderr.write(`cleanup of ${names.CRAWLER_TOPIC_PREFIX}*: ${problem}\n`);
    }, 60_000);

    it('HBase rows and Elasticsearch documents', async () => {
      const token = await crawl('stack', ['--stack', '--out', join(scratch, 'stack')], {
        REDIS_CLUSTER_NODES: '',
        ...stack,
        ...names,
      });
      const stores: CrawlStores = {
        elasticsearchUrl: stack.ELASTICSEARCH_URL,
        index: names.ELASTICSEARCH_INDEX,
        hbaseRestUrl: stack.HBASE_REST_URL,
        table: names.HBASE_TABLE,
      };
      expectRightAgainstTheTruth(await scoreCrawl(truthFile, token, stores));
    }, 480_000);
  });
});
