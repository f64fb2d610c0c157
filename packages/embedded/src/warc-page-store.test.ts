import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Schemas, sha1Digest, type StoredPage } from '@crawler/core';
import { describePageStoreContract, sampleMessages } from '@crawler/core/testing';
import { WARCParser } from 'warcio';
import { describe, expect, it } from 'vitest';
import { WarcPageStore } from './warc-page-store.js';
import { base32 } from '@crawler/core';

describePageStoreContract('WARC files (embedded)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'warc-'));
  let current = await WarcPageStore.open(dir);
  return {
    store: current,
    reopen: async () => {
      await current.close();
      current = await WarcPageStore.open(dir);
      return current;
    },
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
});

/** Every record of the folder's one WARC file as warcio reads it: type, URI, HTTP status line, headers and payload. */
async function warcioIndex(dir: string) {
  const file = readdirSync(dir).find((name) => name.endsWith('.warc.gz'))!;
  const records = [];
  for await (const record of new WARCParser(Readable.from([readFileSync(join(dir, file))]), { keepHeadersCase: false }))
    records.push({
      type: record.warcType,
      uri: record.warcTargetURI,
      statusLine: record.httpHeaders?.statusline,
      http: record.httpHeaders ? Object.fromEntries(record.httpHeaders.headers) : null,
      payload: Buffer.from(await record.readFully()).toString(),
    });
  return records;
}

describe('WARC output', () => {
  it('is read by warcio as WARC/1.1: a warcinfo record, then response, request and metadata records with valid digests', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'warc-'));
    const store = await WarcPageStore.open(dir, { operator: 'Archive Team <archive@example.test>' });
    const page = sampleMessages[Schemas.StoredPage];
    // Stored before pages carried their request: no request record is made up for it.
    const older = { ...page, url: 'http://news.example.test/older', requestHeaders: {} };
    await store.put([page, older]);
    await store.close();
    const file = readdirSync(dir).find((name) => name.endsWith('.warc.gz'))!;
    const parser = new WARCParser(Readable.from([readFileSync(join(dir, file))]), { keepHeadersCase: false });
    const records = [];
    for await (const record of parser) {
      records.push({
        type: record.warcType,
        uri: record.warcTargetURI,
        version: record.warcHeaders.protocol,
        payload: Buffer.from(await record.readFully()),
        headers: record.warcHeaders.headers,
        http: record.httpHeaders,
      });
    }
    expect(records.map((r) => r.type)).toEqual(['warcinfo', 'response', 'request', 'metadata', 'response', 'metadata']);
    const request = records[2]!;
    expect(request.uri).toBe(page.url);
    expect(request.headers.get('WARC-Concurrent-To')).toBe(records[1]!.headers.get('WARC-Record-ID'));
    expect(request.headers.get('Content-Type')).toBe('application/http; msgtype=request');
    expect(request.http?.method).toBe('GET');
    expect(request.http?.requestPath).toBe('/article/7');
    expect(request.http?.headers.get('host')).toBe('news.example.test');
    for (const [name, value] of Object.entries(page.requestHeaders))
      expect(request.http?.headers.get(name), name).toBe(value);
    const info = records[0]!.payload.toString();
    expect(records[0]!.headers.get('WARC-Filename')).toBe(file);
    expect(info).toMatch(/^software: crawler\/\d+\.\d+\.\d+ /m);
    expect(info).toContain(`isPartOf: ${page.jobId}\r\n`);
    expect(info).toContain('operator: Archive Team <archive@example.test>\r\n');
    expect(info).toContain('robots: obey\r\n');
    expect(records[1]!.version).toBe('WARC/1.1');
    expect(records[1]!.uri).toBe(page.url);
    expect(records[1]!.payload.equals(page.body)).toBe(true);
    const { createHash } = await import('node:crypto');
    expect(records[1]!.headers.get('WARC-Payload-Digest')).toBe(
      `sha1:${base32(createHash('sha1').update(page.body).digest())}`,
    );
    expect(JSON.parse(records[3]!.payload.toString())).toMatchObject({ title: page.title, markdown: page.markdown });
    rmSync(dir, { recursive: true, force: true });
  });

  it('marks a body cut at the size cap WARC-Truncated: length and keeps the server headers as they were sent', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'warc-'));
    const store = await WarcPageStore.open(dir);
    const sample = sampleMessages[Schemas.StoredPage];
    const cut = Buffer.from(`<html><body>${'<a href="/x">x</a>'.repeat(200)}`);
    const headers = {
      'content-type': 'text/html',
      'content-length': '2565599',
      'content-encoding': 'gzip',
      'transfer-encoding': 'chunked',
      connection: 'keep-alive',
    };
    const truncated = {
      ...sample,
      body: cut,
      bodyEncoding: 'identity',
      bodyLength: cut.length,
      truncated: true,
      headers,
    };
    const whole = { ...sample, url: 'http://news.example.test/whole', truncated: false };
    await store.put([truncated, whole]);
    await store.close();
    const file = readdirSync(dir).find((name) => name.endsWith('.warc.gz'))!;
    const parser = new WARCParser(Readable.from([readFileSync(join(dir, file))]), { keepHeadersCase: false });
    const responses = [];
    for await (const record of parser) {
      if (record.warcType !== 'response') continue;
      responses.push({
        truncated: record.warcHeaders.headers.get('WARC-Truncated'),
        http: Object.fromEntries(record.httpHeaders!.headers),
        // Decoding asked for: warcio finds the block is neither chunked nor gzip and keeps it as it is.
        payload: Buffer.from(await record.readFully(true)),
      });
    }
    expect(responses[0]!.truncated).toBe('length');
    expect(responses[0]!.http).toMatchObject(headers);
    expect(responses[0]!.payload.equals(cut)).toBe(true);
    expect(responses[1]!.truncated).toBeFalsy();
    expect(responses[1]!.http).toEqual(sample.headers);
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads a metadata record written before pages had Markdown as a page without one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'warc-'));
    const store = await WarcPageStore.open(dir);
    const { markdown: _markdown, ...before } = sampleMessages[Schemas.StoredPage];
    await store.put([before as unknown as StoredPage]);
    const [read] = await store.get(before.url);
    expect(read).toMatchObject({ text: before.text, markdown: null });
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('encodes base32 as RFC 4648 does', () => {
    expect(base32(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32(Buffer.from('f'))).toBe('MY');
  });

  it('writes a revisit as WARC 1.1 identical-payload-digest: the HTTP head, the original and the payload digest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'warc-'));
    const store = await WarcPageStore.open(dir);
    const page = sampleMessages[Schemas.StoredPage];
    const payloadDigest = sha1Digest(page.body);
    await store.put([page]);
    await store.putRevisits([
      {
        url: 'http://news.example.test/copy',
        surt: 'test,example,news)/copy',
        jobId: page.jobId,
        fetchedAt: page.fetchedAt + 60_000,
        httpStatus: 200,
        headers: { 'content-type': 'text/html', etag: '"a"' },
        payloadDigest,
        refersToUrl: page.url,
        refersToDate: page.fetchedAt,
      },
    ]);
    await store.close();
    const file = readdirSync(dir).find((name) => name.endsWith('.warc.gz'))!;
    const parser = new WARCParser(Readable.from([readFileSync(join(dir, file))]), { keepHeadersCase: false });
    const revisits = [];
    for await (const record of parser) {
      if (record.warcType !== 'revisit') continue;
      revisits.push({
        headers: Object.fromEntries(record.warcHeaders.headers),
        http: Object.fromEntries(record.httpHeaders!.headers),
        status: record.httpHeaders!.statusCode,
        payload: Buffer.from(await record.readFully()),
      });
    }
    expect(revisits).toHaveLength(1);
    expect(revisits[0]!.headers).toMatchObject({
      'warc-target-uri': 'http://news.example.test/copy',
      'warc-profile': 'http://netpreserve.org/warc/1.1/revisit/identical-payload-digest',
      'warc-refers-to-target-uri': page.url,
      'warc-refers-to-date': new Date(page.fetchedAt).toISOString(),
      'warc-payload-digest': payloadDigest,
    });
    expect(revisits[0]!.status).toBe(200);
    expect(revisits[0]!.http).toEqual({ 'content-type': 'text/html', etag: '"a"' });
    expect(revisits[0]!.payload.length).toBe(0);
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes a redirect as a response record with its status line, Location and body, its request beside it, indexed by its status', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'warc-'));
    const store = await WarcPageStore.open(dir);
    const body = Buffer.from('<html><body>Moved</body></html>');
    await store.putRedirects([
      {
        url: 'http://news.example.test/old',
        surt: 'test,example,news)/old',
        jobId: 'job',
        fetchedAt: 1_790_000_000_000,
        httpStatus: 301,
        headers: { location: '/new', 'content-type': 'text/html', 'content-length': String(body.length) },
        requestHeaders: { 'user-agent': 'test-crawler' },
        location: 'http://news.example.test/new',
        body,
        truncated: false,
      },
    ]);
    await store.close();
    // As pywb reads them: the records in order, each one's HTTP head and payload.
    const records = await warcioIndex(dir);
    expect(records.map((record) => record.type)).toEqual(['warcinfo', 'response', 'request', 'metadata']);
    expect(records[1]).toMatchObject({
      uri: 'http://news.example.test/old',
      statusLine: 'HTTP/1.1 301 Moved Permanently',
      http: { location: '/new', 'content-type': 'text/html' },
      payload: body.toString(),
    });
    expect(records[2]).toMatchObject({ uri: 'http://news.example.test/old', statusLine: 'GET /old HTTP/1.1' });
    const [line] = readFileSync(join(dir, 'index.cdxj'), 'utf8').trim().split('\n');
    expect(JSON.parse(line!.slice(line!.indexOf('{')))).toMatchObject({
      url: 'http://news.example.test/old',
      status: '301',
      mime: 'text/html',
      digest: sha1Digest(body).slice('sha1:'.length),
    });
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('WARC output after a crash', () => {
  const page = (url: string, fetchedAt: number) => ({ ...sampleMessages[Schemas.StoredPage], url, fetchedAt });
  const warcFiles = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.warc.gz'));

  /** A fresh folder with the pages written (one put each) by a store that was then closed. */
  async function folderWith(...pages: ReturnType<typeof page>[]): Promise<string> {
    const dir = mkdtempSync(join(tmpdir(), 'warc-'));
    const store = await WarcPageStore.open(dir);
    for (const stored of pages) await store.put([stored]);
    await store.close();
    return dir;
  }

  /** Response records per URL in every WARC file of the folder, read by warcio (which fails on a cut member). */
  async function responses(dir: string): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    for (const file of warcFiles(dir)) {
      for await (const record of new WARCParser(Readable.from([readFileSync(join(dir, file))]))) {
        if (record.warcType === 'response')
          counts.set(record.warcTargetURI!, (counts.get(record.warcTargetURI!) ?? 0) + 1);
        await record.readFully();
      }
    }
    return counts;
  }

  it('truncates a record cut at the end of the file and writes the page again once', async () => {
    const dir = await folderWith(page('http://a.test/1', 1000));
    const [file] = warcFiles(dir);
    const whole = statSync(join(dir, file!)).size;
    // The first bytes of a second record: a kill in the middle of its write.
    appendFileSync(join(dir, file!), readFileSync(join(dir, file!)).subarray(0, 100));
    const second = await WarcPageStore.open(dir);
    expect(statSync(join(dir, file!)).size).toBe(whole);
    await second.put([page('http://a.test/2', 2000)]);
    await second.close();
    expect(Object.fromEntries(await responses(dir))).toEqual({ 'http://a.test/1': 1, 'http://a.test/2': 1 });
    rmSync(dir, { recursive: true, force: true });
  });

  it('drops records whose index line was never written, and a torn index line, so nothing is stored twice', async () => {
    const dir = await folderWith(page('http://a.test/1', 1000), page('http://a.test/2', 2000));
    const cdxj = join(dir, 'pages-00000.cdxj');
    const [line1, line2] = readFileSync(cdxj, 'utf8').split('\n');
    // Killed after the second record's bytes, in the middle of its index line.
    writeFileSync(cdxj, `${line1}\n${line2!.slice(0, 40)}`);
    const second = await WarcPageStore.open(dir);
    expect(await second.get('http://a.test/2')).toEqual([]);
    await second.put([page('http://a.test/2', 2500)]);
    await second.close();
    const third = await WarcPageStore.open(dir);
    expect((await third.get('http://a.test/2')).map((stored) => stored.fetchedAt)).toEqual([2500]);
    await third.close();
    expect(Object.fromEntries(await responses(dir))).toEqual({ 'http://a.test/1': 1, 'http://a.test/2': 1 });
    rmSync(dir, { recursive: true, force: true });
  });

  it('removes a file that holds no indexed record and keeps numbering new files after the others', async () => {
    const dir = await folderWith(page('http://a.test/1', 1000));
    writeFileSync(join(dir, 'pages-00001.warc.gz'), Buffer.from([0x1f, 0x8b, 0x08]));
    const second = await WarcPageStore.open(dir);
    await second.put([page('http://a.test/2', 2000)]);
    await second.close();
    expect(warcFiles(dir).sort()).toEqual(['pages-00000.warc.gz', 'pages-00002.warc.gz']);
    expect(Object.fromEntries(await responses(dir))).toEqual({ 'http://a.test/1': 1, 'http://a.test/2': 1 });
    rmSync(dir, { recursive: true, force: true });
  });

  it('opened read-only beside a writer, cuts nothing and reads what is indexed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'warc-'));
    const writer = await WarcPageStore.open(dir);
    await writer.put([page('http://a.test/1', 1000)]);
    await writer.flush();
    const [file] = warcFiles(dir);
    // The writer in the middle of its next record and index line.
    appendFileSync(join(dir, file!), Buffer.from([0x1f, 0x8b, 0x08, 0x00]));
    appendFileSync(join(dir, 'pages-00000.cdxj'), 'test,a)/2 20260101000000 {"url":"http://a.t');
    const sizes = [statSync(join(dir, file!)).size, statSync(join(dir, 'pages-00000.cdxj')).size];
    const reader = await WarcPageStore.open(dir, { readOnly: true });
    expect((await reader.get('http://a.test/1')).map((stored) => stored.fetchedAt)).toEqual([1000]);
    await expect(reader.put([page('http://a.test/3', 3000)])).rejects.toThrow('read-only');
    await reader.close();
    expect([statSync(join(dir, file!)).size, statSync(join(dir, 'pages-00000.cdxj')).size]).toEqual(sizes);
    await writer.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
