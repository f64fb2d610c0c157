import { describe, expect, it } from 'vitest';
import { parseCrawlJob } from './crawl-job.js';
import { createScope } from './job-scope.js';

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

  it('limits depth', () => {
    const scope = createScope(parseCrawlJob({ maxDepth: 2 }));
    expect(scope.depthAllowed(2)).toBe(true);
    expect(scope.depthAllowed(3)).toBe(false);
  });

  it('rejects a job with an invalid field, naming it', () => {
    expect(() => parseCrawlJob({ maxDepth: -1 })).toThrow(/maxDepth/);
    expect(() => parseCrawlJob({ seeds: ['not a url'] })).toThrow(/seeds/);
  });
});
