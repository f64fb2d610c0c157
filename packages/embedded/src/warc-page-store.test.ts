import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Schemas } from '@crawler/core';
import { describePageStoreContract, sampleMessages } from '@crawler/core/testing';
import { WARCParser } from 'warcio';
import { describe, expect, it } from 'vitest';
import { WarcPageStore } from './warc-page-store.js';
import { base32 } from './warc-record.js';

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

describe('WARC output', () => {
  it('is read by warcio as WARC/1.1 response + metadata records with valid digests', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'warc-'));
    const store = await WarcPageStore.open(dir);
    const page = sampleMessages[Schemas.StoredPage];
    await store.put([page]);
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
      });
    }
    expect(records.map((r) => r.type)).toEqual(['response', 'metadata']);
    expect(records[0]!.version).toBe('WARC/1.1');
    expect(records[0]!.uri).toBe(page.url);
    expect(records[0]!.payload.equals(page.body)).toBe(true);
    const { createHash } = await import('node:crypto');
    expect(records[0]!.headers.get('WARC-Payload-Digest')).toBe(
      `sha1:${base32(createHash('sha1').update(page.body).digest())}`,
    );
    expect(JSON.parse(records[1]!.payload.toString()).title).toBe(page.title);
    expect(readFileSync(join(dir, 'pages.cdxj'), 'utf8')).toMatch(/^test,example,news\)\/article\/7 \d{14} \{/);
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

  it('encodes base32 as RFC 4648 does', () => {
    expect(base32(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32(Buffer.from('f'))).toBe('MY');
  });
});
