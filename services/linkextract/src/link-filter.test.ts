import { parseCrawlJob } from '@crawler/core';
import { describe, expect, it } from 'vitest';
import type { RawLink } from './html/raw-link.js';
import { createLinkFilter, type LinkFilterInput } from './link-filter.js';

const page = new URL('http://a.test/dir/page');
const a = (href: string, rel: string | null = null): RawLink => ({ href, anchor: href, rel, source: 'a' });
const input = (links: RawLink[], overrides: Partial<LinkFilterInput> = {}): LinkFilterInput => ({
  links,
  overflow: 0,
  base: page,
  page,
  depth: 0,
  nofollow: false,
  ...overrides,
});

describe('link filter', () => {
  it('resolves, canonicalizes, dedupes and scopes links, counting each drop under its first reason', () => {
    const filter = createLinkFilter(
      parseCrawlJob({ seeds: ['http://a.test/', 'http://b.test/'], scope: { deny: ['/logout'] } }),
      false,
      100,
    );
    const result = filter(
      input(
        [
          a('x#top'),
          a('./x'),
          a('../up?utm_source=z'),
          a('HTTP://B.TEST:80/b'),
          a('http://c.test/'),
          a('/logout'),
          a('mailto:me@a.test'),
          a('/ad', 'sponsored'),
          a('/u', 'ugc nofollow'),
          { href: '/canon', anchor: null, rel: 'canonical', source: 'canonical' },
        ],
        { overflow: 3 },
      ),
    );
    expect(result.links.map((link) => link.url)).toEqual([
      'http://a.test/dir/x',
      'http://a.test/up',
      'http://b.test/b',
    ]);
    expect(Object.fromEntries(result.dropped)).toEqual({
      'links-capped': 3,
      duplicate: 1,
      'out-of-scope': 1,
      denied: 1,
      scheme: 1,
      nofollow: 2,
    });
  });

  it('keeps nofollow links when told to, but never from a nofollow page', () => {
    const filter = createLinkFilter(parseCrawlJob({}), true, 100);
    expect(filter(input([a('/s', 'sponsored')])).links).toHaveLength(1);
    expect(Object.fromEntries(filter(input([a('/s'), a('/t')], { nofollow: true })).dropped)).toEqual({ nofollow: 2 });
  });

  it('applies the job URL options, depth, entry rules, trap guards and the host budget', () => {
    const job = parseCrawlJob({
      maxDepth: 2,
      urls: { sortQuery: true, extraTrackingParams: ['ref'] },
      scope: {
        mode: 'any',
        entryRules: [{ page: '/channel/', links: ['/article/'] }],
        maxRepeatedSegments: 2,
        maxQueryParams: 3,
        maxUrlsPerHost: 2,
      },
    });
    const filter = createLinkFilter(job, false, 100);
    expect(filter(input([a('/q?b=2&ref=x&a=1')])).links[0]!.url).toBe('http://a.test/q?a=1&b=2');
    expect(Object.fromEntries(filter(input([a('/deeper')], { depth: 2 })).dropped)).toEqual({ depth: 1 });
    const channel = new URL('http://a.test/channel/world');
    expect(
      Object.fromEntries(filter(input([a('/article/1'), a('/about')], { page: channel, base: channel })).dropped),
    ).toEqual({ 'entry-rule': 1 });
    expect(Object.fromEntries(filter(input([a('/x/y/x/y/x'), a('/p?a=1&b=2&c=3&d=4')])).dropped)).toEqual({
      'repeated-segments': 1,
      'query-params': 1,
    });
    // a.test already passed on /q?… and /article/1: its budget of 2 is spent.
    expect(Object.fromEntries(filter(input([a('/new'), a('http://b.test/new')])).dropped)).toEqual({
      'host-budget': 1,
    });
  });

  it('caps the links passed on by distinct in-scope URLs: repeats and off-site links do not use up the cap', () => {
    const filter = createLinkFilter(parseCrawlJob({ seeds: ['http://a.test/'] }), false, 3);
    const links = [
      ...Array.from({ length: 50 }, (_, i) => a(`/one#entry-${i}`)),
      ...Array.from({ length: 50 }, (_, i) => a(`http://elsewhere.test/${i}`)),
      a('/two'),
      a('/two#again'),
      a('/three'),
      a('/four'),
      a('/five'),
    ];
    const result = filter(input(links));
    expect(result.links.map((link) => link.url)).toEqual([
      'http://a.test/one',
      'http://a.test/two',
      'http://a.test/three',
    ]);
    expect(Object.fromEntries(result.dropped)).toEqual({ duplicate: 50, 'out-of-scope': 50, 'links-capped': 2 });
  });
});
