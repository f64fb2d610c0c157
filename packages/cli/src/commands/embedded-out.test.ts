import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLinkRecord, Schemas } from '@crawler/core';
import { sampleMessages } from '@crawler/core/testing';
import { FileLinkBase, WarcPageStore } from '@crawler/embedded';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../cli.js';
import { capture } from '../test-support/capture-output.js';

const now = Date.now();

/** An embedded crawl's output folder as `crawler run --out` leaves it, its crawl still holding a lease. */
async function crawlOutput(): Promise<string> {
  const out = mkdtempSync(join(tmpdir(), 'crawler-out-'));
  const linkbase = await FileLinkBase.open(join(out, 'linkbase'), { flushIntervalMs: 10 });
  await linkbase.insertNew([
    createLinkRecord('http://a.test/', { status: 'fetched', lastOutcome: 'ok', httpStatus: 200, fetchCount: 1 }),
    createLinkRecord('http://a.test/missing', {
      status: 'gone',
      lastOutcome: 'gone',
      httpStatus: 404,
      fetchCount: 1,
      lastFetchAt: now - 5_000,
      nextFetchAt: Number.MAX_SAFE_INTEGER,
    }),
    createLinkRecord('http://a.test/busy', { status: 'queued', leaseUntil: now + 60_000 }),
  ]);
  await linkbase.close();
  // One page stored, and a redirect followed on the way to it: archived, but no page.
  const warc = await WarcPageStore.open(join(out, 'warc'));
  const page = { ...sampleMessages[Schemas.StoredPage], url: 'http://a.test/' };
  await warc.put([page]);
  await warc.putRedirects([
    {
      url: 'http://a.test/home',
      surt: 'test,a)/home',
      jobId: page.jobId,
      fetchedAt: page.fetchedAt - 1,
      httpStatus: 301,
      headers: { location: '/' },
      requestHeaders: {},
      location: 'http://a.test/',
      body: Buffer.alloc(0),
      truncated: false,
    },
  ]);
  await warc.close();
  writeFileSync(
    join(out, 'crawl.log'),
    [
      { level: 'info', msg: 'site template learned' },
      { level: 'warn', msg: 'body truncated at FETCHER_MAX_BODY_BYTES', url: 'http://a.test/big' },
      { level: 'warn', msg: 'page dropped as a duplicate', url: 'http://a.test/copy' },
      { level: 'warn', msg: 'page dropped as a duplicate', url: 'http://a.test/copy2' },
    ]
      .map((line) => JSON.stringify(line))
      .join('\n'),
  );
  return out;
}

describe('operators commands on an embedded crawl (--out)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('crawler status --out shows the link base, stored pages and the warnings of crawl.log, writing nothing', async () => {
    const out = await crawlOutput();
    const journal = readFileSync(join(out, 'linkbase', 'linkbase.journal.jsonl'));
    const io = capture();
    expect(await runCli(['status', '--out', out])).toBe(0);
    expect(io.out()).toContain(`embedded crawl in ${out}`);
    expect(io.out()).toMatch(/link base {3}3 known · \d+ due · 1 leased/);
    expect(io.out()).toContain('fetched 1 · gone 1 · queued 1');
    expect(io.out()).toMatch(/pages +1 versions stored/);
    expect(io.out()).toMatch(
      /warnings \(crawl.log\)\n +2 {2}page dropped as a duplicate\n +1 {2}body truncated at FETCHER_MAX_BODY_BYTES\n/,
    );
    // Read-only: a running crawl's lease is not released, and its journal gets no stale records.
    expect(readFileSync(join(out, 'linkbase', 'linkbase.journal.jsonl')).equals(journal)).toBe(true);
    rmSync(out, { recursive: true, force: true });
  });

  it('crawler errors --out lists the failed URLs of the crawl in that folder', async () => {
    const out = await crawlOutput();
    const io = capture();
    expect(await runCli(['errors', '--out', out])).toBe(0);
    expect(io.out()).toMatch(/gone +gone +404 .*http:\/\/a\.test\/missing/);
    expect(io.out()).toContain('1 failed URL\n');
    rmSync(out, { recursive: true, force: true });
  });

  it.each(['status', 'errors'])('crawler %s --out on a folder without a crawl says so with exit 2', async (command) => {
    const io = capture();
    expect(await runCli([command, '--out', '/nonexistent/crawl'])).toBe(2);
    expect(io.err()).toBe(
      `crawler ${command}: no link base under /nonexistent/crawl/linkbase: --out names the folder given to crawler run\n`,
    );
  });
});
