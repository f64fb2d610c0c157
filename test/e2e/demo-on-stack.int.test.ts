import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { stackAddresses, repoRoot } from '../reliability/support/stack-env.js';
import { dropNames, freshNames } from '../reliability/support/stack-names.js';

const run = promisify(execFile);

/**
 * `crawler demo --stack`: the one-process crawl on Kafka, Elasticsearch, Redis and HBase, as a
 * user runs it from the README, scored against the test web's ground truth.
 */
describe('crawler demo --stack', () => {
  const names = freshNames('demo-stack');
  const stack = stackAddresses();
  const outDir = mkdtempSync(join(tmpdir(), 'demo-stack-'));
  afterAll(async () => {
    rmSync(outDir, { recursive: true, force: true });
    for (const problem of await dropNames(stack, names))
      process.stderr.write(`cleanup of ${names.CRAWLER_TOPIC_PREFIX}*: ${problem}\n`);
  }, 60_000);

  it('crawls the test web on the real stack and matches its ground truth', async () => {
    const { stdout } = await run(
      process.execPath,
      [
        join(repoRoot, 'packages/cli/dist/main.js'),
        'demo',
        '--stack',
        '--json',
        '--out',
        outDir,
        '--pages-per-host',
        '30',
      ],
      {
        env: { ...process.env, REDIS_CLUSTER_NODES: '', ...stack, ...names },
        timeout: 240_000,
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    const { summary, groundTruth } = JSON.parse(stdout) as {
      summary: { pagesFetched: number; stopReason?: string };
      groundTruth: { pass: boolean; missing: string[]; outcomes: { wrong: string[] }; pagesExpected: number };
    };
    expect(groundTruth.missing).toEqual([]);
    expect(groundTruth.outcomes.wrong).toEqual([]);
    expect(groundTruth.pass).toBe(true);
    expect(groundTruth.pagesExpected).toBeGreaterThan(40);
    expect(summary.pagesFetched).toBeGreaterThanOrEqual(groundTruth.pagesExpected);
  }, 300_000);
});
