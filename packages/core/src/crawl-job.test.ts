import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jobCanonicalizeOptions, jobContentTypes, loadCrawlJob, parseCrawlJob } from './crawl-job.js';
import { canonicalUrl } from './url/canonicalize.js';

describe('crawl job', () => {
  it('resolves the rule file against the job file folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'job-'));
    writeFileSync(join(dir, 'job.json'), JSON.stringify({ extraction: { rulesFile: 'rules/news.json' } }));
    expect(loadCrawlJob(join(dir, 'job.json')).extraction.rulesFile).toBe(join(dir, 'rules/news.json'));
  });

  it("refuses a key it does not know, at any level, naming the file and where; the fetcher's rendering section passes", () => {
    expect(() => parseCrawlJob({ seeds: ['http://a.test/'], maxPagez: 3 }, 'job.json')).toThrow(
      'job.json: (root): Unrecognized key: "maxPagez"',
    );
    expect(() => parseCrawlJob({ scope: { hostz: [] } }, 'job.json')).toThrow(/job.json: scope: .*"hostz"/);
    expect(() => parseCrawlJob({ politeness: [{ hosts: ['a.test'], perRoundd: 1 }] })).toThrow(
      /politeness\.0: .*"perRoundd"/,
    );
    expect(parseCrawlJob({ rendering: { enabled: true } }).id).toBe('default');
  });

  it('names the media types to fetch for feeds, sitemaps and plain text', () => {
    expect(jobContentTypes(parseCrawlJob({ extraction: { sitemaps: false } }))).toEqual([]);
    expect(jobContentTypes(parseCrawlJob({}))).toContain('application/xml');
    const types = jobContentTypes(parseCrawlJob({ extraction: { feeds: true, sitemaps: true, plainText: true } }));
    expect(types).toEqual(
      expect.arrayContaining([
        'application/rss+xml',
        'application/atom+xml',
        'application/xml',
        'application/gzip',
        'text/plain',
      ]),
    );
  });

  it('carries canonicalization options for discovered links', () => {
    const options = jobCanonicalizeOptions(
      parseCrawlJob({ maxUrlLength: 100, urls: { sortQuery: true, extraTrackingParams: ['From'] } }),
    );
    expect(canonicalUrl('http://a.test/?z=1&from=x&a=2', undefined, options)).toBe('http://a.test/?a=2&z=1');
    expect(options.maxLength).toBe(100);
  });
});

describe('crawl job scheduling fields', () => {
  it('reads schedule periods as milliseconds or as durations like 90s, 15m, 1h, 7d', () => {
    const job = parseCrawlJob({
      seeds: ['http://a.test/'],
      schedules: [{ every: '1h' }, { every: 90_000, urls: ['http://a.test/live'] }, { every: '1.5d' }],
    });
    expect(job.schedules.map((schedule) => schedule.every)).toEqual([3_600_000, 90_000, 129_600_000]);
    expect(job.schedules[0]!.urls).toEqual([]);
    expect(() => parseCrawlJob({ schedules: [{ every: 'hourly' }] })).toThrow(/schedules\.0\.every/);
    expect(() => parseCrawlJob({ schedules: [{ every: '10ms' }] })).toThrow(/at least one second/);
  });

  it('takes politeness overrides per host pattern and sitemaps, empty by default', () => {
    const job = parseCrawlJob({
      politeness: [{ hosts: ['*.example.org'], minDelayMs: 5000, maxInFlight: 2 }],
      sitemaps: ['http://a.test/sitemap.xml'],
    });
    expect(job.politeness).toEqual([{ hosts: ['*.example.org'], minDelayMs: 5000, maxInFlight: 2 }]);
    expect(job.sitemaps).toEqual(['http://a.test/sitemap.xml']);
    expect(parseCrawlJob({})).toMatchObject({ schedules: [], politeness: [], sitemaps: [] });
    expect(() => parseCrawlJob({ politeness: [{ hosts: [], perRound: 1 }] })).toThrow(/politeness\.0\.hosts/);
  });
});
