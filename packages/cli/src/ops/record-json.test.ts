import { Codec, Schemas, type IncomingMessage } from '@crawler/core';
import { sampleMessages } from '@crawler/core/testing';
import { describe, expect, it } from 'vitest';
import { matchesFilters, parseFilters } from './record-filter.js';
import { toTappedRecord } from './record-json.js';

const codec = new Codec();
const message = (value: Buffer): IncomingMessage => ({
  topic: 'x.crawl.fetched',
  partition: 2,
  offset: 41,
  key: Buffer.from('news.example.test'),
  value,
  headers: { 'trace-id': 't-1' },
  timestamp: Date.UTC(2026, 0, 2, 3, 4, 5),
});

describe('tapped records', () => {
  it('decodes with schemas/, bytes as base64, and cuts long fields saying how long they were', () => {
    const body = Buffer.alloc(3000, 'a');
    const record = toTappedRecord(
      message(
        codec.encode(Schemas.FetchResult, { ...sampleMessages[Schemas.FetchResult], body, bodyLength: body.length }),
      ),
      codec,
      100,
    );
    expect(record).toMatchObject({
      topic: 'x.crawl.fetched',
      partition: 2,
      offset: 41,
      timestamp: '2026-01-02T03:04:05.000Z',
      key: 'news.example.test',
      headers: { 'trace-id': 't-1' },
      schema: 'crawler.FetchResult',
    });
    const value = record.value as { body: string; url: string };
    expect(Buffer.from(value.body, 'base64')).toEqual(body.subarray(0, 100));
    expect(value.url).toBe(sampleMessages[Schemas.FetchResult].url);
    expect(record.truncated).toEqual({ 'value.body': 3000 });
    expect(JSON.parse(JSON.stringify(record))).toEqual(record);
  });

  it('prints undecodable bytes with the reason instead of stopping', () => {
    const record = toTappedRecord(message(Buffer.from('not avro')), codec, 4);
    expect(record.error?.code).toBe('CODEC_BAD_HEADER');
    expect(record.raw).toBe(Buffer.from('not ').toString('base64'));
    expect(record.truncated).toEqual({ raw: 8 });
  });

  it('filters on fields, nested fields, and on host through the url when a record has no host', () => {
    const status = { host: 'news.example.test', outcome: 'gone', meta: { followed: 'true' } };
    const links = { sourceUrl: 'http://blog.example.test/a', links: [] };
    expect(matchesFilters(status, parseFilters('tap', ['host=news.example.test', 'outcome=gone']))).toBe(true);
    expect(matchesFilters(status, parseFilters('tap', ['meta.followed=true']))).toBe(true);
    expect(matchesFilters(status, parseFilters('tap', ['outcome=ok']))).toBe(false);
    expect(matchesFilters(links, parseFilters('tap', ['host=blog.example.test']))).toBe(true);
    expect(matchesFilters(links, parseFilters('tap', ['host=news.example.test']))).toBe(false);
    expect(() => parseFilters('tap', ['host'])).toThrow(/--filter must be field=value/);
  });
});
