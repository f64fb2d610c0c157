import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLinkRecord, type LinkRecord } from '@crawler/core';
import { FileLinkBase } from '@crawler/embedded';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../cli.js';

const now = Date.now();
const record = (url: string, fields: Partial<LinkRecord>) =>
  createLinkRecord(url, { fetchCount: 1, lastFetchAt: now - 60_000, nextFetchAt: now + 3_600_000, ...fields });

async function linkbaseIn(dir: string): Promise<FileLinkBase> {
  return FileLinkBase.open(join(dir, 'linkbase'), { flushIntervalMs: 10 });
}

async function errors(dir: string, args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => out.push(String(chunk)) > 0);
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => err.push(String(chunk)) > 0);
  vi.stubEnv('CRAWLER_LINKBASE', 'file');
  vi.stubEnv('CRAWLER_DATA_DIR', dir);
  const code = await runCli(['errors', ...args]);
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  return { code, out: out.join(''), err: err.join('') };
}

describe('crawler errors', () => {
  afterEach(() => vi.restoreAllMocks());

  it('lists failed URLs newest first with their cause, filtered by host, class and age, and requeues them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crawler-errors-'));
    const seeded = await linkbaseIn(dir);
    await seeded.insertNew([
      record('http://a.test/timeout', {
        status: 'retry',
        lastOutcome: 'timeout',
        errorCode: 'FETCH_TIMEOUT',
        consecutiveFailures: 2,
        lastFetchAt: now - 30_000,
      }),
      record('http://a.test/missing', {
        status: 'gone',
        lastOutcome: 'gone',
        httpStatus: 404,
        lastFetchAt: now - 10_000,
        nextFetchAt: Number.MAX_SAFE_INTEGER,
      }),
      record('http://a.test/fine', { status: 'fetched', lastOutcome: 'ok', httpStatus: 200 }),
      record('http://b.test/broken', {
        status: 'error',
        lastOutcome: 'server_error',
        httpStatus: 503,
        consecutiveFailures: 3,
        lastFetchAt: now - 7_200_000,
      }),
    ]);
    await seeded.close();

    const listed = await errors(dir, ['--json']);
    expect(listed.code).toBe(0);
    const rows = listed.out
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as {
            url: string;
            status: string;
            class: string;
            httpStatus: number | null;
            failures: number;
            nextFetchAt: string | null;
          },
      );
    expect(rows[0]!.nextFetchAt).toBeNull();
    expect(rows.map((row) => [row.url, row.status, row.class, row.httpStatus, row.failures])).toEqual([
      ['http://a.test/missing', 'gone', 'gone', 404, 0],
      ['http://a.test/timeout', 'retry', 'timeout', null, 2],
      ['http://b.test/broken', 'error', 'server_error', 503, 3],
    ]);
    expect((await errors(dir, ['--host', 'b.test'])).out).toMatch(
      /error\s+server_error\s+503\s+-\s+3\s+http:\/\/b\.test\/broken\n1 failed URL\n$/,
    );
    expect((await errors(dir, ['--class', 'timeout', '--json'])).out).toContain('http://a.test/timeout');
    expect((await errors(dir, ['--since', '1h', '--json'])).out).not.toContain('b.test');
    expect((await errors(dir, ['--limit', '1'])).out).toContain('2 more (--limit)');

    const requeued = await errors(dir, ['--host', 'a.test', '--requeue']);
    expect(requeued.err).toContain('requeued 2 URLs');
    const after = await linkbaseIn(dir);
    const due = await after.findDue({ now: Date.now(), limit: 10, perQueueLimit: 10 });
    expect(due.map((entry) => entry.url).sort()).toEqual(['http://a.test/missing', 'http://a.test/timeout']);
    expect(due.every((entry) => entry.status === 'queued' && entry.consecutiveFailures === 0)).toBe(true);
    await after.close();
    expect((await errors(dir, ['--json'])).out.trim().split('\n')).toHaveLength(1);
  });
});
