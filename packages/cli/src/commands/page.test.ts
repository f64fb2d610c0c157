import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Schemas, surtKey, urlId, type StoredPage } from '@crawler/core';
import { sampleMessages } from '@crawler/core/testing';
import { WarcPageStore } from '@crawler/embedded';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../cli.js';
import { capture } from '../test-support/capture-output.js';

const url = 'http://news.test/story?id=7';
const version = (fetchedAt: number, text: string, change: string): StoredPage => {
  const body = Buffer.from(`<html><body><p>${text}</p></body></html>`);
  return {
    ...sampleMessages[Schemas.StoredPage],
    url,
    urlId: urlId(url),
    surt: surtKey(url),
    host: 'news.test',
    finalUrl: url,
    fetchedAt,
    text,
    markdown: `## Story\n\n${text}\n\n| a | b |\n| --- | --- |\n| 1\t| 2 |`,
    change,
    body: gzipSync(body),
    bodyEncoding: 'gzip',
    bodyLength: body.length,
    simhash: '0123456789abcdef',
    verdict: 'ok',
    digest: `d${fetchedAt}`,
    rawDigest: `r${fetchedAt}`,
  };
};

describe('crawler page get', () => {
  let out: string;
  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'page-get-'));
    const store = await WarcPageStore.open(join(out, 'warc'));
    await store.put([
      version(Date.UTC(2026, 0, 1), 'First version.', 'new'),
      version(Date.UTC(2026, 0, 2), 'Second version.', 'changed'),
    ]);
    await store.close();
  });
  afterEach(() => vi.restoreAllMocks());

  it('prints the newest version of an embedded crawl, found by the URL in any spelling', async () => {
    const io = capture();
    expect(await runCli(['page', 'get', '--out', out, 'HTTP://News.Test:80/story?id=7#top'])).toBe(0);
    expect(io.out()).toContain('versions     1');
    expect(io.out()).toContain('decision     changed, verdict ok');
    expect(io.out()).toContain('digests      d1767312000000 (raw body r1767312000000), simhash 0123456789abcdef');
    expect(io.out()).toMatch(/main text {4}\(15 characters, newest version\)\nSecond version\./);
  });

  it('lists every version with --versions, and gives the records with --json', async () => {
    const io = capture();
    expect(await runCli(['page', 'get', '--out', out, '--versions', '--json', url])).toBe(0);
    const records = io
      .out()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records.map((record) => [record.change, record.fetchedAt, record.text])).toEqual([
      ['changed', '2026-01-02T00:00:00.000Z', 'Second version.'],
      ['new', '2026-01-01T00:00:00.000Z', 'First version.'],
    ]);
    expect(Buffer.from(records[0]!.body as string, 'base64').toString()).toBe(
      '<html><body><p>Second version.</p></body></html>',
    );
  });

  it('prints the newest version’s Markdown alone with --markdown, tabs kept and escapes escaped', async () => {
    const io = capture();
    expect(await runCli(['page', 'get', '--out', out, '--markdown', url])).toBe(0);
    expect(io.out()).toBe('## Story\n\nSecond version.\n\n| a | b |\n| --- | --- |\n| 1\t| 2 |\n');
    expect(await runCli(['page', 'get', '--out', out, '--markdown', '--versions', url])).toBe(2);
    expect(io.err()).toMatch(/--markdown shows the newest version alone/);
  });

  it('says when there is nothing to read', async () => {
    const io = capture();
    expect(await runCli(['page', 'get', '--out', out, 'http://news.test/other'])).toBe(1);
    expect(io.err()).toContain('has no stored version in the WARC files under');
    expect(await runCli(['page', 'get', '--out', join(out, 'nope'), url])).toBe(2);
    expect(await runCli(['page', 'get', '--out', out, 'mailto:a@b.test'])).toBe(2);
    expect(await runCli(['page', 'fetch', url])).toBe(2);
  });
});
