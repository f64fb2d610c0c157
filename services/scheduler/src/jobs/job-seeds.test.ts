import { linkRecordId, parseCrawlJob } from '@crawler/core';
import { describe, expect, it } from 'vitest';
import { givenUrlRecord, jobStartRecords } from './job-seeds.js';

describe('job start records', () => {
  it('queues seeds, monitored URLs and sitemaps once each, canonical, due now, valued', () => {
    const job = parseCrawlJob({
      id: 'news',
      seeds: ['HTTP://News.test/#top', 'http://news.test/world?utm_source=x', 'http://news.test/#'],
      schedules: [{ every: '1h', urls: ['http://news.test/', 'http://news.test/live', 'http://news.test/live#'] }],
      sitemaps: ['http://news.test/sitemap.xml', 'http://news.test/sitemap.xml#'],
    });
    const records = jobStartRecords(job, 5000, () => 0.5);
    expect(records.map((record) => [record.url, record.source])).toEqual([
      ['http://news.test/', 'seed'],
      ['http://news.test/world', 'seed'],
      ['http://news.test/live', 'seed'],
      ['http://news.test/sitemap.xml', 'sitemap'],
    ]);
    expect(
      records.every(
        (record) =>
          record.jobId === 'news' &&
          record.depth === 0 &&
          record.nextFetchAt === 5000 &&
          record.rank === 0.5 &&
          record.trafficClass === 'discovery',
      ),
    ).toBe(true);
    expect(records[0]!.id).toBe(linkRecordId('news', 'http://news.test/'));
    expect(records[0]!.priority).toBeGreaterThan(records[3]!.priority);
  });

  it('refuses what is not an http(s) URL', () => {
    expect(givenUrlRecord(parseCrawlJob({}), 'ftp://x.test/', 'seed', 0, Math.random)).toBeNull();
  });
});
