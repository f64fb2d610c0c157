import { linkRecordId, parseCrawlJob } from '@crawler/core';
import { makeLinkRecord } from '@crawler/core/testing';
import type { Outlinks } from '@crawler/core';
import { describe, expect, it } from 'vitest';
import { linkCandidates, recordForCandidate, updateSitemapHints } from './new-link-records.js';

const message = (fields: Partial<Outlinks>): Outlinks => ({
  kind: 'page',
  sourceUrl: 'http://a.test/',
  sourceUrlId: null,
  jobId: 'j',
  traceId: 't',
  depth: 1,
  discoveredAt: 5,
  links: [],
  ...fields,
});
const link = (url: string, anchor: string | null = null) => ({
  url,
  anchor,
  rel: null,
  source: 'a',
  lastmod: null,
  changefreq: null,
});

describe('linkCandidates', () => {
  const job = parseCrawlJob({ seeds: ['http://a.test/'], maxDepth: 2 });

  it('merges repeated links and keeps up to five anchors', () => {
    const candidates = linkCandidates(
      message({ links: [link('http://a.test/x', 'one'), link('http://a.test/x', 'two'), link('http://a.test/y')] }),
      job,
    );
    expect(candidates.map((candidate) => [candidate.url, candidate.anchors])).toEqual([
      ['http://a.test/x', ['one', 'two']],
      ['http://a.test/y', []],
    ]);
  });

  it('drops links past the job depth, except seeds', () => {
    expect(linkCandidates(message({ depth: 3, links: [link('http://a.test/deep')] }), job)).toEqual([]);
    expect(
      linkCandidates(message({ kind: 'seed', sourceUrl: null, depth: 3, links: [link('http://z.test/')] }), job),
    ).toHaveLength(1);
  });

  it('scopes links that link extraction did not see (redirect targets, robots sitemaps)', () => {
    const fromRobots = message({
      kind: 'robots',
      links: [link('http://a.test/sitemap.xml'), link('http://elsewhere.test/sitemap.xml')],
    });
    expect(linkCandidates(fromRobots, job).map((candidate) => candidate.url)).toEqual(['http://a.test/sitemap.xml']);
  });

  it('canonicalizes the links link extraction did not see with the job’s URL options, so a fragment makes no second URL', () => {
    const sorting = parseCrawlJob({ seeds: ['http://a.test/'], maxDepth: 2, urls: { sortQuery: true } });
    const urls = (fields: Partial<Outlinks>) =>
      linkCandidates(message(fields), sorting).map((candidate) => [candidate.id, candidate.url]);
    const sitemap = 'http://a.test/sitemap.xml';
    expect(
      urls({ kind: 'robots', links: [link(`${sitemap}#`), link(sitemap), link('HTTP://A.TEST/sitemap.xml#top')] }),
    ).toEqual([[linkRecordId('j', sitemap), sitemap]]);
    expect(urls({ kind: 'xhr', links: [link('http://a.test/api?b=2&a=1#')] })).toEqual([
      [linkRecordId('j', 'http://a.test/api?a=1&b=2'), 'http://a.test/api?a=1&b=2'],
    ]);
    expect(urls({ kind: 'seed', sourceUrl: null, links: [link('http://z.test/#'), link('mailto:x@z.test')] })).toEqual([
      [linkRecordId('j', 'http://z.test/'), 'http://z.test/'],
    ]);
  });

  it('keeps a sitemap’s hints on the candidate and the new record, the newer listing winning within a message', () => {
    const hinted = (url: string, lastmod: number | null, changefreq: string | null) => ({
      ...link(url),
      source: 'sitemap',
      lastmod,
      changefreq,
    });
    const candidates = linkCandidates(
      message({
        links: [
          hinted('http://a.test/h', 100, 'hourly'),
          hinted('http://a.test/h', 200, null),
          hinted('http://a.test/y', null, 'yearly'),
          hinted('http://a.test/y', 50, null),
          link('http://a.test/plain'),
        ],
      }),
      job,
    );
    expect(candidates.map((candidate) => [candidate.url, candidate.hints])).toEqual([
      ['http://a.test/h', { lastmod: 200, changefreq: 'hourly' }],
      ['http://a.test/y', { lastmod: 50, changefreq: 'yearly' }],
      ['http://a.test/plain', { lastmod: null, changefreq: null }],
    ]);
    expect(recordForCandidate(candidates[0]!, message({}), 99)).toMatchObject({
      source: 'sitemap',
      sitemapLastmod: 200,
      sitemapChangefreq: 'hourly',
    });
    expect(recordForCandidate(candidates[2]!, message({}), 99)).toMatchObject({
      sitemapLastmod: null,
      sitemapChangefreq: null,
    });
  });

  it('builds a queued record due now, keeping depth, source and anchors', () => {
    const [candidate] = linkCandidates(message({ links: [link('http://a.test/x', 'X')] }), job);
    expect(recordForCandidate(candidate!, message({}), 99)).toMatchObject({
      url: 'http://a.test/x',
      depth: 1,
      source: 'a',
      anchors: ['X'],
      status: 'queued',
      nextFetchAt: 99,
      discoveredAt: 5,
      host: 'a.test',
    });
  });
});

describe('updateSitemapHints', () => {
  const stored = makeLinkRecord('http://a.test/x', { sitemapLastmod: 1000, sitemapChangefreq: 'weekly' });

  it('takes hints at least as new as the stored ones, keeping what the sitemap leaves out', () => {
    expect(updateSitemapHints(stored, { lastmod: 2000, changefreq: 'daily' }, 9000)).toMatchObject({
      sitemapLastmod: 2000,
      sitemapChangefreq: 'daily',
    });
    expect(updateSitemapHints(stored, { lastmod: 2000, changefreq: null }, 9000)).toMatchObject({
      sitemapLastmod: 2000,
      sitemapChangefreq: 'weekly',
    });
    expect(updateSitemapHints(stored, { lastmod: null, changefreq: 'hourly' }, 9000)).toMatchObject({
      sitemapLastmod: 1000,
      sitemapChangefreq: 'hourly',
    });
    expect(
      updateSitemapHints(makeLinkRecord('http://a.test/y'), { lastmod: 5, changefreq: 'never' }, 9000),
    ).toMatchObject({ sitemapLastmod: 5, sitemapChangefreq: 'never' });
  });

  it('returns the record itself (no write) for no hints, older hints or the same hints', () => {
    expect(updateSitemapHints(stored, { lastmod: null, changefreq: null }, 9000)).toBe(stored);
    expect(updateSitemapHints(stored, { lastmod: 500, changefreq: 'hourly' }, 9000)).toBe(stored);
    expect(updateSitemapHints(stored, { lastmod: 1000, changefreq: 'weekly' }, 9000)).toBe(stored);
  });

  it('makes a fetched page due now when a new lastmod falls after its last fetch, once', () => {
    const fetched = makeLinkRecord('http://a.test/f', {
      status: 'fetched',
      fetchCount: 1,
      lastFetchAt: 5000,
      lastSeenAt: 5000,
      nextFetchAt: 90_000,
      sitemapLastmod: 1000,
    });
    const now = 10_000;
    const hinted = updateSitemapHints(fetched, { lastmod: 7000, changefreq: null }, now);
    expect(hinted).toMatchObject({ sitemapLastmod: 7000, nextFetchAt: now });
    // The same sitemap read again, the page not re-fetched yet: nothing more to write.
    expect(updateSitemapHints(hinted, { lastmod: 7000, changefreq: null }, now + 1)).toBe(hinted);
    // Modified before our copy, in the future (a wrong clock), or never fetched: the plan stands.
    expect(updateSitemapHints(fetched, { lastmod: 4000, changefreq: null }, now).nextFetchAt).toBe(90_000);
    expect(updateSitemapHints(fetched, { lastmod: 20_000, changefreq: null }, now).nextFetchAt).toBe(90_000);
    expect(
      updateSitemapHints({ ...fetched, status: 'gone' }, { lastmod: 7000, changefreq: null }, now).nextFetchAt,
    ).toBe(90_000);
    const queued = makeLinkRecord('http://a.test/q', { nextFetchAt: 50_000 });
    expect(updateSitemapHints(queued, { lastmod: 7000, changefreq: null }, now).nextFetchAt).toBe(50_000);
  });
});
