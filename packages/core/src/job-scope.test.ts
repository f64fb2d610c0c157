import { describe, expect, it } from 'vitest';
import { parseCrawlJob } from './crawl-job.js';
import { createScope, maxSegmentRepeats } from './job-scope.js';

const page = new URL('http://a.test/p');

describe('createScope', () => {
  it('keeps to the seed hosts by default, plus listed extra hosts', () => {
    const scope = createScope(parseCrawlJob({ seeds: ['http://a.test/'], scope: { hosts: ['c.test'] } }));
    expect(scope.check(new URL('http://a.test/x'), page)).toBeNull();
    expect(scope.check(new URL('http://c.test/x'), page)).toBeNull();
    expect(scope.check(new URL('http://b.test/x'), page)).toBe('out-of-scope');
  });

  it('supports same-host and any modes, deny before allow', () => {
    const host = createScope(parseCrawlJob({ scope: { mode: 'host' } }));
    expect(host.check(new URL('http://b.test/'), page)).toBe('out-of-scope');
    const any = createScope(parseCrawlJob({ scope: { mode: 'any', allow: ['/news/'], deny: ['/news/private'] } }));
    expect(any.check(new URL('http://z.test/news/1'), page)).toBeNull();
    expect(any.check(new URL('http://z.test/news/private/1'), page)).toBe('denied');
    expect(any.check(new URL('http://z.test/shop/1'), page)).toBe('not-allowed');
  });

  it('keeps to the registrable domains of the seeds in domain mode', () => {
    const scope = createScope(
      parseCrawlJob({ seeds: ['https://www.example.co.uk/'], scope: { mode: 'domain', hosts: ['partner.org'] } }),
    );
    expect(scope.check(new URL('https://shop.example.co.uk/a'), page)).toBeNull();
    expect(scope.check(new URL('https://www.partner.org/'), page)).toBeNull();
    expect(scope.check(new URL('https://other.co.uk/'), page)).toBe('out-of-scope');
    const seedless = createScope(parseCrawlJob({ scope: { mode: 'domain' } }));
    expect(seedless.check(new URL('http://x.a.test/'), new URL('http://y.a.test/'))).toBeNull();
    expect(seedless.check(new URL('http://b.test/'), new URL('http://y.a.test/'))).toBe('out-of-scope');
  });

  it('drops over-long URLs, repeated path segments and too many query parameters', () => {
    const scope = createScope(
      parseCrawlJob({ maxUrlLength: 40, scope: { mode: 'any', maxRepeatedSegments: 2, maxQueryParams: 2 } }),
    );
    expect(scope.check(new URL(`http://a.test/${'x'.repeat(40)}`), page)).toBe('too-long');
    expect(scope.check(new URL('http://a.test/a/b/a/b/a'), page)).toBe('repeated-segments');
    expect(scope.check(new URL('http://a.test/a/b/a/b'), page)).toBeNull();
    expect(scope.check(new URL('http://a.test/?a=1&b=2&c=3'), page)).toBe('query-params');
    expect(scope.check(new URL('http://a.test/?a=1&b=2'), page)).toBeNull();
  });

  it('lets entry pages yield only the links their rule names', () => {
    const scope = createScope(
      parseCrawlJob({
        scope: {
          entryRules: [
            { page: '/channel/', links: ['/article/\\d+$'] },
            { page: '/channel/sport', links: ['/live/'] },
          ],
        },
      }),
    );
    const channel = new URL('http://a.test/channel/politics');
    expect(scope.entryRule(new URL('http://a.test/article/12'), channel)).toBeNull();
    expect(scope.entryRule(new URL('http://a.test/about'), channel)).toBe('entry-rule');
    expect(scope.entryRule(new URL('http://a.test/live/now'), new URL('http://a.test/channel/sport'))).toBeNull();
    expect(scope.entryRule(new URL('http://a.test/about'), new URL('http://a.test/home'))).toBeNull();
  });

  it('counts the most repeated path segment', () => {
    expect(maxSegmentRepeats('/')).toBe(0);
    expect(maxSegmentRepeats('/a/b/c')).toBe(1);
    expect(maxSegmentRepeats('/cal/2026/01/cal/01/01')).toBe(3);
  });

  it('limits depth', () => {
    const scope = createScope(parseCrawlJob({ maxDepth: 2 }));
    expect(scope.depthAllowed(2)).toBe(true);
    expect(scope.depthAllowed(3)).toBe(false);
  });

  it('rejects a job with an invalid field, naming it', () => {
    expect(() => parseCrawlJob({ maxDepth: -1 })).toThrow(/maxDepth/);
    expect(() => parseCrawlJob({ seeds: ['not a url'] })).toThrow(/seeds/);
    expect(() => parseCrawlJob({ scope: { deny: ['(unclosed'] } })).toThrow(
      /scope\.deny\.0: not a valid regular expression/,
    );
  });
});
