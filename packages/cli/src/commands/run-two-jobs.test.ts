import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { canonicalUrl, cdxjCaptureKind, type LinkRecord } from '@crawler/core';
import { indexedCaptures, WarcPageStore } from '@crawler/embedded';
import { startTestWeb, type GroundTruth, type TestWeb } from '@crawler/testweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_WEB_CRAWL_ENV } from '../test-support/test-web-env.js';

const main = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

/** Runs `crawler run --job FILE --out OUT` to its end; resolves with its exit code. */
function crawl(jobFile: string, out: string): Promise<number | null> {
  const child = spawn(process.execPath, [main, 'run', '--job', jobFile, '--out', out, '--quiet'], {
    env: { PATH: process.env.PATH, ...TEST_WEB_CRAWL_ENV },
    stdio: 'ignore',
  });
  return new Promise((resolve) => child.once('exit', resolve));
}

/** The link base as the folder holds it (snapshot, then journal; the last line of a record wins). */
function linkRecords(out: string): LinkRecord[] {
  const byId = new Map<string, LinkRecord>();
  for (const name of ['linkbase.snapshot.jsonl', 'linkbase.journal.jsonl']) {
    const path = join(out, 'linkbase', name);
    if (!existsSync(path)) continue;
    for (const line of readFileSync(path, 'utf8').split('\n').filter(Boolean)) {
      const record = JSON.parse(line) as LinkRecord;
      byId.set(record.id, record);
    }
  }
  return [...byId.values()];
}

/**
 * Two crawl jobs over the same site on one deployment (one output folder: one link base, one set
 * of fingerprints, one page store): the second is not starved by the first. Each job keeps its
 * own record of every URL, so the test web's log shows every page requested again for the second
 * job, and the WARC files hold each job's copy of every page.
 */
describe('two jobs over the same site on one deployment', () => {
  let web: TestWeb;
  let truth: GroundTruth;
  let dir: string;

  beforeAll(async () => {
    if (!existsSync(main)) throw new Error(`${main} is missing: run npm run build first`);
    web = await startTestWeb({ seed: 4, pagesPerHost: 30 });
    truth = web.groundTruth();
    dir = mkdtempSync(join(tmpdir(), 'crawler-two-jobs-'));
  });
  afterAll(async () => {
    await web?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('both reach every page: each fetches and stores every page for itself', async () => {
    const out = join(dir, 'out');
    const pages = [...new Set(truth.pages.map((url) => canonicalUrl(url) ?? url))];
    for (const job of ['alpha', 'beta']) {
      const jobFile = join(dir, `${job}.json`);
      writeFileSync(jobFile, JSON.stringify({ id: job, seeds: truth.seeds, maxDepth: truth.maxDepth }));
      web.requests.reset();
      expect(await crawl(jobFile, out)).toBe(0);
      const unrequested = pages.filter((url) => web.requests.count(url, 'GET') === 0);
      expect(unrequested, `pages job ${job} did not request`).toEqual([]);
      const records = new Map(
        linkRecords(out)
          .filter((record) => record.jobId === job)
          .map((record) => [record.url, record]),
      );
      const unfetched = pages.filter((url) => !['fetched', 'duplicate'].includes(records.get(url)?.status ?? ''));
      expect(unfetched, `pages job ${job} has no content for`).toEqual([]);
    }

    // Each job's copy of each page it stored, neither overwriting the other.
    const store = await WarcPageStore.open(join(out, 'warc'), { readOnly: true });
    try {
      const stored = new Map<string, Set<string>>([
        ['alpha', new Set()],
        ['beta', new Set()],
      ]);
      const urls = new Set(
        indexedCaptures(join(out, 'warc'))
          .filter((capture) => cdxjCaptureKind(capture) === 'page')
          .map((capture) => capture.url),
      );
      for (const url of urls)
        for (const version of await store.get(url, { versions: 10 })) stored.get(version.jobId)?.add(url);
      for (const job of ['alpha', 'beta']) {
        const fetched = linkRecords(out)
          .filter((record) => record.jobId === job && record.status === 'fetched' && pages.includes(record.url))
          .map((record) => record.url);
        // Every page not a duplicate of another is stored: most of them.
        expect(fetched.length, job).toBeGreaterThan(0.8 * pages.length);
        expect(
          fetched.filter((url) => !stored.get(job)!.has(url)),
          `pages job ${job} fetched but did not store`,
        ).toEqual([]);
      }
    } finally {
      await store.close();
    }
  }, 240_000);
});
