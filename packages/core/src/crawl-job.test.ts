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

  it('names the media types to fetch for feeds, sitemaps and plain text', () => {
    expect(jobContentTypes(parseCrawlJob({ extraction: { sitemaps: false } }))).toEqual([]);
    expect(jobContentTypes(parseCrawlJob({}))).toContain('application/xml');
    const types = jobContentTypes(parseCrawlJob({ extraction: { feeds: true, sitemaps: true, plainText: true } }));
    expect(types).toEqual(expect.arrayContaining(['application/rss+xml', 'application/atom+xml', 'application/xml', 'application/gzip', 'text/plain']));
  });

  it('carries canonicalization options for discovered links', () => {
    const options = jobCanonicalizeOptions(parseCrawlJob({ maxUrlLength: 100, urls: { sortQuery: true, extraTrackingParams: ['From'] } }));
    expect(canonicalUrl('http://a.test/?z=1&from=x&a=2', undefined, options)).toBe('http://a.test/?a=2&z=1');
    expect(options.maxLength).toBe(100);
  });
});
