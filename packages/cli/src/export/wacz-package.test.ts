import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCdxjLine, Schemas, type StoredPage } from '@crawler/core';
import { sampleMessages } from '@crawler/core/testing';
import { WarcPageStore } from '@crawler/embedded';
import { afterEach, describe, expect, it } from 'vitest';
import { writeWacz } from './wacz-package.js';

/** Every entry of a ZIP file as Python's zipfile reads it: name, method, bytes. */
function unzip(file: string): Map<string, { method: number; data: Buffer }> {
  const script = `
import base64, json, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    print(json.dumps([[i.filename, i.compress_type, base64.b64encode(z.read(i)).decode()] for i in z.infolist()]))
`;
  const entries = JSON.parse(execFileSync('python3', ['-c', script, file], { encoding: 'utf8' })) as [
    string,
    number,
    string,
  ][];
  return new Map(entries.map(([name, method, data]) => [name, { method, data: Buffer.from(data, 'base64') }]));
}

const page = (url: string, fetchedAt: number, title: string): StoredPage => {
  const body = Buffer.from(`<html><title>${title}</title><body>${title}</body></html>`);
  return {
    ...sampleMessages[Schemas.StoredPage],
    url,
    fetchedAt,
    title,
    body,
    bodyEncoding: 'identity',
    bodyLength: body.length,
  };
};

describe('writeWacz', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('packs a crawl still writing: whole captures only, the index sorted, pages with titles, every file hashed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wacz-'));
    dirs.push(dir);
    const warc = join(dir, 'warc');
    const store = await WarcPageStore.open(warc);
    await store.put([page('http://z.test/', 2000, 'Zed')]);
    await store.put([page('http://a.test/', 3000, 'Alpha')]);
    await store.flush();
    // The writer in the middle of its next capture and index line.
    const indexed = statSync(join(warc, 'pages-00000.warc.gz')).size;
    appendFileSync(join(warc, 'pages-00000.warc.gz'), Buffer.from([0x1f, 0x8b, 0x08, 0x00]));
    appendFileSync(join(warc, 'pages-00000.cdxj'), 'test,m)/ 2026 {"url":"http://m.t');
    const file = join(dir, 'crawl.wacz');
    const summary = await writeWacz(warc, file, 'a test crawl');
    await store.close();
    expect(summary).toMatchObject({ warcFiles: 1, captures: 2, pages: 2 });
    const entries = unzip(file);
    expect([...entries.keys()]).toEqual([
      'archive/pages-00000.warc.gz',
      'indexes/index.cdx',
      'pages/pages.jsonl',
      'datapackage.json',
      'datapackage-digest.json',
    ]);
    expect([...entries.values()].every((entry) => entry.method === 0)).toBe(true);
    expect(entries.get('archive/pages-00000.warc.gz')!.data.length).toBe(indexed);
    const index = entries.get('indexes/index.cdx')!.data.toString().split('\n').filter(Boolean).map(parseCdxjLine);
    expect(index.map((line) => line.key)).toEqual(['test,a)/', 'test,z)/']);
    const pages = entries
      .get('pages/pages.jsonl')!
      .data.toString()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(pages[0]).toEqual({ format: 'json-pages-1.0', id: 'pages', title: 'All Pages' });
    expect(pages.slice(1).map(({ url, ts, title }) => ({ url, ts, title }))).toEqual([
      { url: 'http://a.test/', ts: new Date(3000).toISOString(), title: 'Alpha' },
      { url: 'http://z.test/', ts: new Date(2000).toISOString(), title: 'Zed' },
    ]);
    const datapackage = JSON.parse(entries.get('datapackage.json')!.data.toString()) as {
      wacz_version: string;
      resources: { path: string; hash: string; bytes: number }[];
    };
    expect(datapackage.wacz_version).toBe('1.1.1');
    for (const resource of datapackage.resources) {
      const data = entries.get(resource.path)!.data;
      expect(resource).toMatchObject({
        bytes: data.length,
        hash: `sha256:${createHash('sha256').update(data).digest('hex')}`,
      });
    }
    const digest = JSON.parse(entries.get('datapackage-digest.json')!.data.toString()) as { hash: string };
    expect(digest.hash).toBe(
      `sha256:${createHash('sha256').update(entries.get('datapackage.json')!.data).digest('hex')}`,
    );
    // The crawl's folder is only read.
    expect(readFileSync(join(warc, 'pages-00000.cdxj'), 'utf8')).toContain('{"url":"http://m.t');
  });
});
