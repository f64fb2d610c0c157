import { parseCrawlJob } from '@crawler/core';
import type { Outlinks } from '@crawler/core';
import { describe, expect, it } from 'vitest';
import { linkCandidates, recordForCandidate } from './new-link-records.js';

const message = (fields: Partial<Outlinks>): Outlinks => ({ kind: 'page', sourceUrl: 'http://a.test/', sourceUrlId: null, jobId: 'j', traceId: 't', depth: 1, discoveredAt: 5, links: [], ...fields });
const link = (url: string, anchor: string | null = null) => ({ url, anchor, rel: null, source: 'a', lastmod: null, changefreq: null });

describe('linkCandidates', () => {
  const job = parseCrawlJob({ seeds: ['http://a.test/'], maxDepth: 2 });

  it('merges repeated links and keeps up to five anchors', () => {
    const candidates = linkCandidates(message({ links: [link('http://a.test/x', 'one'), link('http://a.test/x', 'two'), link('http://a.test/y')] }), job);
    expect(candidates.map((candidate) => [candidate.url, candidate.anchors])).toEqual([
      ['http://a.test/x', ['one', 'two']],
      ['http://a.test/y', []],
    ]);
  });

  it('drops links past the job depth, except seeds', () => {
    expect(linkCandidates(message({ depth: 3, links: [link('http://a.test/deep')] }), job)).toEqual([]);
    expect(linkCandidates(message({ kind: 'seed', sourceUrl: null, depth: 3, links: [link('http://z.test/')] }), job)).toHaveLength(1);
  });

  it('scopes links that link extraction did not see (redirect targets, robots sitemaps)', () => {
    const fromRobots = message({ kind: 'robots', links: [link('http://a.test/sitemap.xml'), link('http://elsewhere.test/sitemap.xml')] });
    expect(linkCandidates(fromRobots, job).map((candidate) => candidate.url)).toEqual(['http://a.test/sitemap.xml']);
  });

  it('builds a queued record due now, keeping depth, source and anchors', () => {
    const [candidate] = linkCandidates(message({ links: [link('http://a.test/x', 'X')] }), job);
    expect(recordForCandidate(candidate!, message({}), 99)).toMatchObject({ url: 'http://a.test/x', depth: 1, source: 'a', anchors: ['X'], status: 'queued', nextFetchAt: 99, discoveredAt: 5, host: 'a.test' });
  });
});
