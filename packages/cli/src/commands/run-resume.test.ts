import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { canonicalUrl, cdxjCaptureKind, isRedirectStatus, type LinkRecord, type StoredPage } from '@crawler/core';
import { waitFor } from '@crawler/core/testing';
import { decodeRegistration, DIGEST_NAMESPACE, jobScopeOf, scopedFingerprints } from '@crawler/dedup';
import { indexedCaptures, MemoryFingerprintStore, WarcPageStore } from '@crawler/embedded';
import { startTestWeb, type GroundTruth, type TestWeb } from '@crawler/testweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_WEB_CRAWL_ENV } from '../test-support/test-web-env.js';
import { checkAgainstTruth } from '../truth-check.js';

/**
 * `crawler run` as a user runs it, in a child process on the test web: stopped with Ctrl-C or
 * killed and run again on the same --out, then re-crawled once its pages are due (the scheduler's
 * clock moved ahead with --clock-offset), then run with nothing due.
 */
const main = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const DAY_MS = 86_400_000;
/** Past the longest re-crawl interval (30 days): every page fetched is due. */
const AHEAD = '31d';

const env = { PATH: process.env.PATH, ...TEST_WEB_CRAWL_ENV };

interface Run {
  pid: number;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string }>;
}

function startRun(
  web: TestWeb,
  out: string,
  truth: GroundTruth,
  flags: string[] = [],
  extraEnv: Record<string, string> = {},
): Run {
  const child = spawn(
    process.execPath,
    [
      main,
      'run',
      ...web.seeds.flatMap((seed) => ['--seed', seed]),
      '--max-depth',
      String(truth.maxDepth),
      '--out',
      out,
      '--quiet',
      ...flags,
    ],
    { env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.resume();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, stdout })),
  );
  return { pid: child.pid!, exited };
}

/**
 * A content classifier that takes 50 ms a page, with dedup on two pages at a time: dedup falls
 * behind the fetcher, so a stop or a kill finds pages waiting in the topics and pages between
 * dedup's decision (digests registered) and their WARC record.
 */
async function startSlowJudge(): Promise<{ env: Record<string, string>; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    req.resume();
    req.once('end', () =>
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"verdict":"ok"}'), 50),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    env: {
      DEDUP_JUDGE: 'http',
      DEDUP_JUDGE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
      DEDUP_CONCURRENCY: '2',
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The link base as a restarted process finds it: snapshot, then journal, the last line of a record winning. */
function linkBaseOnDisk(out: string): Map<string, LinkRecord> {
  const byId = new Map<string, LinkRecord>();
  for (const name of ['linkbase.snapshot.jsonl', 'linkbase.journal.jsonl']) {
    const path = join(out, 'linkbase', name);
    if (!existsSync(path)) continue;
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      try {
        const record = JSON.parse(line) as LinkRecord;
        byId.set(record.id, record);
      } catch {
        // The torn last line of a killed process.
      }
    }
  }
  return new Map([...byId.values()].map((record) => [record.url, record]));
}

/** Page response records per URL in every WARC file of the crawl (concatenated gzip members), redirects left out. */
function warcResponses(out: string): Map<string, number> {
  const counts = new Map<string, number>();
  const dir = join(out, 'warc');
  for (const name of readdirSync(dir).filter((file) => file.endsWith('.warc.gz'))) {
    const text = gunzipSync(readFileSync(join(dir, name))).toString('latin1');
    const records =
      /WARC-Type: response\r\n(?:[^\r\n]+\r\n)*?WARC-Target-URI: ([^\r\n]+)\r\n(?:[^\r\n]+\r\n)*\r\nHTTP\/1\.1 (\d{3})/g;
    for (const match of text.matchAll(records))
      // A redirect followed is archived as a response too, with its 3xx status: not a page.
      if (!isRedirectStatus(Number(match[2]))) counts.set(match[1]!, (counts.get(match[1]!) ?? 0) + 1);
  }
  return counts;
}

/** The pages the crawl's WARC files index (revisits and redirects left out). */
function cdxj(out: string): { url: string; fetchedAt: number }[] {
  return indexedCaptures(join(out, 'warc'))
    .filter((capture) => cdxjCaptureKind(capture) === 'page')
    .map((capture) => ({ url: capture.url, fetchedAt: Number(capture.fetchedAt) }));
}

/** Every page stored so far has its digest registered to it in the fingerprint folder: dedup remembers. */
async function expectDigestsKept(out: string): Promise<void> {
  const pages = await WarcPageStore.open(join(out, 'warc'), { readOnly: true });
  const stored: StoredPage[] = [];
  for (const url of new Set(cdxj(out).map((capture) => capture.url)))
    stored.push(...(await pages.get(url, { versions: 100 })));
  await pages.close();
  expect(stored.length).toBeGreaterThan(0);
  const store = await MemoryFingerprintStore.open(join(out, 'fingerprints'));
  try {
    // The crawl's one job, 'default', keeps its fingerprints under its own prefix (job-fingerprints.ts).
    const values = await scopedFingerprints(store, jobScopeOf('default', [])).get(
      DIGEST_NAMESPACE,
      stored.map((entry) => entry.digest),
    );
    expect(values.map((value, i) => (value ? decodeRegistration(value).url : `missing for ${stored[i]!.url}`))).toEqual(
      stored.map((entry) => entry.url),
    );
  } finally {
    await store.close();
  }
}

/** After a run to the end: every page found, duplicates known as such, every stored page in the WARC files exactly once. */
function expectCompleteCrawl(web: TestWeb, truth: GroundTruth, out: string) {
  const records = linkBaseOnDisk(out);
  const report = checkAgainstTruth(truth, web.requests, records);
  expect(report.missing).toEqual([]);
  expect(report.exactDuplicateGroupsDetected).toBe(truth.exactDuplicates.length);
  const responses = warcResponses(out);
  expect([...responses].filter(([, count]) => count > 1)).toEqual([]);
  const fetched = [...records.values()].filter((record) => record.status === 'fetched').map((record) => record.url);
  expect([...responses.keys()].sort()).toEqual(fetched.sort());
  return report;
}

describe('crawler run stopped and resumed, then re-crawled', () => {
  let web: TestWeb;
  let truth: GroundTruth;
  const dirs: string[] = [];
  const outDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'crawler-run-resume-'));
    dirs.push(dir);
    return dir;
  };
  beforeAll(async () => {
    if (!existsSync(main)) throw new Error(`${main} is missing: run npm run build first`);
    web = await startTestWeb({ seed: 3 });
    truth = web.groundTruth();
  });
  afterAll(async () => {
    await web.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /**
   * A fresh crawl, sent `signal` once a third of the pages are stored. The slow classifier makes
   * fetched pages wait in the topics, and dedup hold pages between deciding and storing them, then.
   */
  async function crawlUntilAThird(signal: NodeJS.Signals) {
    web.requests.reset();
    const out = outDir();
    const judge = await startSlowJudge();
    const first = startRun(web, out, truth, [], judge.env);
    await waitFor(() => cdxj(out).length >= Math.floor(truth.pages.length / 3), 60_000);
    process.kill(first.pid, signal);
    const stopped = await first.exited;
    await judge.close();
    return { out, stopped };
  }

  let interrupted = '';

  it('after Ctrl-C stops cleanly and resumes: nothing lost, nothing fetched or stored twice, dedup remembered', async () => {
    const { out, stopped } = await crawlUntilAThird('SIGINT');
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toContain('Crawl stopped (interrupted)');
    expect(cdxj(out).length).toBeLessThan(truth.pages.length);
    // The summary counts what the stop let through, and says the rest is due.
    const summary = JSON.parse(readFileSync(join(out, 'crawl-summary.json'), 'utf8')) as {
      pagesStored: number;
      dueNow: number;
    };
    expect(summary.pagesStored).toBe(cdxj(out).length);
    expect(summary.dueNow).toBeGreaterThan(0);
    await expectDigestsKept(out);

    const resumed = await startRun(web, out, truth).exited;
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('Crawl complete');
    const report = expectCompleteCrawl(web, truth, out);
    // Requests in flight were finished and recorded; URLs still waiting were handed back unfetched.
    expect(report.fetchedMoreThanOnce).toEqual([]);
    interrupted = out;
  }, 180_000);

  it('after kill -9 resumes: nothing lost, nothing stored twice, only URLs leased at the kill fetched again', async () => {
    const { out, stopped } = await crawlUntilAThird('SIGKILL');
    expect(stopped.signal).toBe('SIGKILL');
    // What a fetcher may have fetched without its outcome being recorded: the URLs leased on disk.
    const leased = [...linkBaseOnDisk(out).values()]
      .filter((record) => record.leaseUntil > 0)
      .map((record) => record.url);
    await expectDigestsKept(out);

    const resumed = await startRun(web, out, truth).exited;
    expect(resumed.code).toBe(0);
    const report = expectCompleteCrawl(web, truth, out);
    expect(report.fetchedMoreThanOnce.filter((url) => !leased.includes(canonicalUrl(url) ?? url))).toEqual([]);
  }, 180_000);

  it('re-checks every due page in one run with conditional GET once the clock has moved on', async () => {
    expect(interrupted).not.toBe('');
    const out = interrupted;
    const now = Date.now() + 31 * DAY_MS;
    const isDue = (record: LinkRecord) =>
      ['queued', 'retry', 'fetched', 'error'].includes(record.status) && record.nextFetchAt <= now;
    const due = [...linkBaseOnDisk(out).values()].filter(isDue);
    const pages = due.filter((record) => record.status === 'fetched');
    // Pages the site gave validators for (the blog's and the mirror's HTML pages): conditional GETs, 304s.
    const validated = pages.filter((record) => record.etag !== null || record.lastModified !== null);
    expect(validated.every((record) => truth.validatorHosts.some((host) => record.url.startsWith(`${host}/`)))).toBe(
      true,
    );
    expect(validated.length).toBeGreaterThan(50);
    const before = new Map(due.map((record) => [record.url, web.requests.count(record.url, 'GET')]));
    const notModifiedBefore = new Map(validated.map((record) => [record.url, web.requests.notModified(record.url)]));
    const notModifiedTotal = web.requests.notModified();

    // One URL per host and round: handing out takes longer than the slow host and the retries that
    // otherwise keep the crawl busy, so a run that ends between two rounds would be seen.
    const run = await startRun(web, out, truth, ['--clock-offset', AHEAD], { SCHEDULER_PER_HOST_PER_ROUND: '1' })
      .exited;
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Crawl complete');
    // Every due page asked for once more; every page of a host with validators answered 304 (the web's own count).
    expect(due.filter((record) => web.requests.count(record.url, 'GET') <= before.get(record.url)!)).toEqual([]);
    expect(pages.filter((record) => web.requests.count(record.url, 'GET') !== before.get(record.url)! + 1)).toEqual([]);
    expect(
      validated.filter((record) => web.requests.notModified(record.url) !== notModifiedBefore.get(record.url)! + 1),
    ).toEqual([]);
    expect(web.requests.notModified() - notModifiedTotal).toBe(validated.length);
    expect([...linkBaseOnDisk(out).values()].filter(isDue)).toEqual([]);
  }, 180_000);

  it('with nothing due says when the next page is, fetches nothing and keeps the previous summary', async () => {
    expect(interrupted).not.toBe('');
    const out = interrupted;
    const summary = readFileSync(join(out, 'crawl-summary.json'), 'utf8');
    const requests = web.requests.total();
    const run = await startRun(web, out, truth, ['--clock-offset', AHEAD]).exited;
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Nothing to do: none of the');
    expect(run.stdout).toMatch(/next due {12}\d{4}-\d\d-\d\d \d\d:\d\d UTC \(in /);
    expect(run.stdout).toContain("still holds the previous run's");
    expect(readFileSync(join(out, 'crawl-summary.json'), 'utf8')).toBe(summary);
    expect(JSON.parse(summary)).toMatchObject({ stopReason: 'complete' });
    expect(web.requests.total()).toBe(requests);
  }, 60_000);
});
