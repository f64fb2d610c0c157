import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { archiveSurtKey, parseCdxjLine, Schemas, sha1Digest, type StoredPage } from '@crawler/core';
import { sampleMessages } from '@crawler/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { gzipMember } from './gzip-member.js';
import { WarcPageStore } from './warc-page-store.js';
import { encodeWarcCapture } from './warc-page-encoding.js';
import { parseWarcRecords } from './warc-record.js';

const page = (url: string, fetchedAt: number, text = url): StoredPage => {
  const body = Buffer.from(`<html><body>${text}</body></html>`);
  return {
    ...sampleMessages[Schemas.StoredPage],
    url,
    fetchedAt,
    body,
    bodyEncoding: 'identity',
    bodyLength: body.length,
  };
};

const lines = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean);

describe('WARC page store indexes', () => {
  const dirs: string[] = [];
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'warc-index-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('has one CDXJ line per response or revisit record, pointing at that record alone, with its SHA-1 payload digest', async () => {
    const dir = folder();
    const store = await WarcPageStore.open(dir);
    const stored = page('http://www.Example.test/B?z=1&a=2', 1_700_000_000_000);
    await store.put([stored]);
    await store.putRevisits([
      {
        url: 'http://example.test/a',
        surt: 'test,example)/a',
        jobId: 'j',
        fetchedAt: 1_700_000_100_000,
        httpStatus: 200,
        headers: { 'content-type': 'text/html' },
        payloadDigest: sha1Digest(stored.body),
        refersToUrl: stored.url,
        refersToDate: stored.fetchedAt,
      },
    ]);
    await store.close();
    const warc = readFileSync(join(dir, 'pages-00000.warc.gz'));
    const index = lines(join(dir, 'pages-00000.cdxj')).map(parseCdxjLine);
    expect(index.map((line) => [line.key, line.timestamp, line.fields.mime])).toEqual([
      ['test,example)/a', '20231114221500', 'warc/revisit'],
      ['test,example)/b?a=2&z=1', '20231114221320', 'text/html'],
    ]);
    for (const { fields } of index) {
      const record = gunzipSync(warc.subarray(Number(fields.offset), Number(fields.offset) + Number(fields.length)));
      const records = parseWarcRecords(record);
      expect(records.map((r) => r.headers.get('warc-type'))).toEqual([
        fields.mime === 'warc/revisit' ? 'revisit' : 'response',
      ]);
      expect(records[0]!.headers.get('warc-target-uri')).toBe(fields.url);
      expect(`sha1:${fields.digest}`).toBe(sha1Digest(stored.body));
    }
    expect(readFileSync(join(dir, 'index.cdxj'), 'utf8')).toBe(readFileSync(join(dir, 'pages-00000.cdxj'), 'utf8'));
  });

  it('sorts each finished file index and merges them all into index.cdxj, sorted by SURT key and time', async () => {
    const dir = folder();
    const store = await WarcPageStore.open(dir, { maxFileBytes: 1500 });
    const urls = ['http://c.test/', 'http://a.test/2', 'http://b.test/', 'http://a.test/1', 'http://c.test/x'];
    for (const [i, url] of urls.entries()) await store.put([page(url, 1_700_000_000_000 + (urls.length - i) * 1000)]);
    await store.close();
    const files = readdirSync(dir).filter((name) => name.endsWith('.cdxj') && name !== 'index.cdxj');
    expect(files.length).toBeGreaterThan(1);
    for (const name of files) expect(lines(join(dir, name))).toEqual([...lines(join(dir, name))].sort());
    const merged = lines(join(dir, 'index.cdxj'));
    expect(merged).toEqual([...merged].sort());
    expect(merged.map((line) => parseCdxjLine(line).key)).toEqual([
      'test,a)/1',
      'test,a)/2',
      'test,b)/',
      'test,c)/',
      'test,c)/x',
    ]);
    expect(merged.map((line) => parseCdxjLine(line).key)).toEqual([...urls].map(archiveSurtKey).sort());
  });

  it('sorts at the next close the index a killed process left in write order, and finds its last record', async () => {
    const dir = folder();
    const killed = await WarcPageStore.open(dir);
    await killed.put([page('http://z.test/', 2000)]);
    await killed.put([page('http://a.test/', 3000)]);
    await killed.flush();
    // Killed: never closed, so pages-00000.cdxj is in write order and there is no index.cdxj.
    expect(lines(join(dir, 'pages-00000.cdxj')).map((line) => parseCdxjLine(line).key)).toEqual([
      'test,z)/',
      'test,a)/',
    ]);
    const next = await WarcPageStore.open(dir);
    expect((await next.get('http://z.test/'))[0]?.fetchedAt).toBe(2000);
    await next.put([page('http://m.test/', 4000)]);
    await next.close();
    expect(lines(join(dir, 'pages-00000.cdxj')).map((line) => parseCdxjLine(line).key)).toEqual([
      'test,a)/',
      'test,z)/',
    ]);
    expect(lines(join(dir, 'index.cdxj')).map((line) => parseCdxjLine(line).key)).toEqual([
      'test,a)/',
      'test,m)/',
      'test,z)/',
    ]);
  });

  it('turns the pages.cdxj of a folder written before per-file indexes into them, and resumes with nothing cut', async () => {
    const dir = folder();
    // The older layout: a response and a metadata record per page, one pages.cdxj line spanning both.
    const legacy: string[] = [];
    let offset = 0;
    const chunks: Buffer[] = [];
    for (const [i, url] of ['http://b.test/', 'http://a.test/'].entries()) {
      const stored = page(url, 1000 * (i + 1));
      const { bytes } = encodeWarcCapture(
        {
          kind: 'page',
          url,
          fetchedAt: stored.fetchedAt,
          httpHead: 'HTTP/1.1 200 OK\r\ncontent-type: text/html',
          body: new Uint8Array(stored.body),
          truncated: null,
          httpRequest: null,
          metadata: JSON.stringify({ ...stored, body: undefined, bodyEncoding: undefined, requestHeaders: undefined }),
        },
        6,
      );
      chunks.push(Buffer.from(bytes));
      legacy.push(
        `${stored.surt} 2026 ${JSON.stringify({ url, fetchedAt: stored.fetchedAt, mime: 'text/html', status: 200, digest: 'x', filename: 'pages-00000.warc.gz', offset, length: bytes.length })}`,
      );
      offset += bytes.length;
    }
    writeFileSync(join(dir, 'pages-00000.warc.gz'), Buffer.concat([...chunks, gzipMember(Buffer.from('torn'), 6)]));
    writeFileSync(join(dir, 'pages.cdxj'), `${legacy.join('\n')}\n`);
    const store = await WarcPageStore.open(dir);
    expect((await store.get('http://b.test/'))[0]).toMatchObject({ fetchedAt: 1000, requestHeaders: {} });
    expect((await store.get('http://a.test/'))[0]?.fetchedAt).toBe(2000);
    await store.close();
    expect(readdirSync(dir)).not.toContain('pages.cdxj');
    expect(readFileSync(join(dir, 'pages-00000.warc.gz')).length).toBe(offset);
    const index = lines(join(dir, 'index.cdxj')).map(parseCdxjLine);
    expect(index.map((line) => [line.key, line.fields.offset])).toEqual([
      ['test,a)/', String(chunks[0]!.length)],
      ['test,b)/', '0'],
    ]);
    const first = parseWarcRecords(
      gunzipSync(readFileSync(join(dir, 'pages-00000.warc.gz')).subarray(0, Number(index[1]!.fields.length))),
    );
    expect(first.map((record) => record.headers.get('warc-type'))).toEqual(['response']);
  });
});
