import { describe, expect, it } from 'vitest';
import { findTextUrls } from './text-links.js';

describe('findTextUrls', () => {
  it('trims sentence punctuation but keeps balanced parentheses', () => {
    expect(findTextUrls('Read https://a.test/x. Then (see http://b.test/y), or http://w.test/Foo_(bar).', 10)).toEqual([
      'https://a.test/x',
      'http://b.test/y',
      'http://w.test/Foo_(bar)',
    ]);
  });

  it('adds a scheme to www. addresses and skips things that are not hosts', () => {
    expect(findTextUrls('Visit www.shop.test/sale! Not: http://x or www.', 10)).toEqual(['http://www.shop.test/sale']);
  });

  it('stops at quotes, angle brackets and whitespace, and at the limit', () => {
    expect(findTextUrls('"https://a.test/q"<https://b.test/>\thttps://c.test/', 2)).toEqual([
      'https://a.test/q',
      'https://b.test/',
    ]);
  });

  it('bounds one URL-looking run in a huge unbroken line', () => {
    const [url] = findTextUrls(`https://a.test/${'a'.repeat(1_000_000)}`, 1);
    expect(url!.length).toBe(2048 + 'https://'.length);
  });
});
