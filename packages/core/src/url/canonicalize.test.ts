import { describe, expect, it } from 'vitest';
import { canonicalize, canonicalUrl, defaultCanonicalizeOptions } from './canonicalize.js';
import { surtKey } from './surt.js';
import { urlId } from './url-id.js';

describe('canonicalize', () => {
  it.each([
    ['HTTP://Example.TEST:80/a/./b/../c#frag', 'http://example.test/a/c'],
    ['https://example.test:443/', 'https://example.test/'],
    ['http://example.test:8080', 'http://example.test:8080/'],
    ['http://bücher.example/x', 'http://xn--bcher-kva.example/x'],
    ['http://example.test/%7euser/%41%2f%3a', 'http://example.test/~user/A%2F%3A'],
    ['http://example.test/a%c3%a9', 'http://example.test/a%C3%A9'],
    ['http://example.test/p?utm_source=x&id=3&utm_medium=y&gclid=z', 'http://example.test/p?id=3'],
    ['http://example.test/p;jsessionid=ABC123?x=1&PHPSESSID=zz', 'http://example.test/p?x=1'],
    ['http://example.test/p?', 'http://example.test/p'],
    ['http://example.test/about.html#', 'http://example.test/about.html'],
    ['http://example.test/p?q=1#', 'http://example.test/p?q=1'],
    ['http://user:pw@example.test/', 'http://example.test/'],
    ['http://www.Example.com./a', 'http://www.example.com/a'],
    ['http://e.test/?ttclid=1&_hsenc=2&srsltid=3&q=go', 'http://e.test/?q=go'],
    ['http://e.test/?UTM_Campaign=x&q=1', 'http://e.test/?q=1'],
    ['http://e.test/?q=a%2fb%7e', 'http://e.test/?q=a%2Fb~'],
  ])('%s -> %s', (input, expected) => {
    expect(canonicalUrl(input)).toBe(expected);
  });

  it('resolves relative links against a base', () => {
    expect(canonicalUrl('../x?b=2#top', 'http://example.test/a/b/c.html')).toBe('http://example.test/a/x?b=2');
    expect(canonicalUrl('//other.test/y', 'https://example.test/')).toBe('https://other.test/y');
    // Sphinx writes href="#" on every page: it is the page itself, not a second URL to fetch.
    expect(canonicalUrl('#', 'http://example.test/a/b.html')).toBe('http://example.test/a/b.html');
  });

  it('drops a fragment, empty or not, so `page.html#` is the page itself', () => {
    for (const [input, base] of [
      ['http://h.test/about.html#', undefined],
      ['http://h.test/about.html#top', undefined],
      ['#', 'http://h.test/about.html'],
      ['about.html#', 'http://h.test/'],
      ['http://h.test/about.html?#', undefined],
      ['http://h.test/about.html##', undefined],
    ] as const)
      expect(canonicalUrl(input, base), `${input} on ${base}`).toBe('http://h.test/about.html');
    expect(canonicalUrl('http://h.test/p?q=1#')).toBe('http://h.test/p?q=1');
    expect(canonicalUrl('http://h.test/#')).toBe('http://h.test/');
  });

  it('sorts query parameters only when asked, keeping equal names in order', () => {
    expect(canonicalUrl('http://e.test/?b=1&a=2&b=0')).toBe('http://e.test/?b=1&a=2&b=0');
    expect(
      canonicalUrl('http://e.test/?b=1&a=2&b=0', undefined, { ...defaultCanonicalizeOptions, sortQuery: true }),
    ).toBe('http://e.test/?a=2&b=1&b=0');
  });

  it('keeps tracking parameters when removal is off', () => {
    expect(
      canonicalUrl('http://e.test/?utm_source=x', undefined, {
        ...defaultCanonicalizeOptions,
        removeTrackingParams: false,
      }),
    ).toBe('http://e.test/?utm_source=x');
  });

  it('removes extra tracking and session parameters named in the options', () => {
    const options = { ...defaultCanonicalizeOptions, extraTrackingParams: ['from'], extraSessionParams: ['visit'] };
    expect(canonicalUrl('http://e.test/?from=home&visit=77&id=1', undefined, options)).toBe('http://e.test/?id=1');
    expect(canonicalUrl('http://e.test/?from=home&visit=77&id=1')).toBe('http://e.test/?from=home&visit=77&id=1');
  });

  it('rejects non-web schemes, garbage and over-long URLs with a reason', () => {
    expect(canonicalize('mailto:a@b.test')).toEqual({ ok: false, reason: 'scheme' });
    expect(canonicalize('javascript:void(0)')).toEqual({ ok: false, reason: 'scheme' });
    expect(canonicalize('http://')).toEqual({ ok: false, reason: 'invalid' });
    expect(canonicalize(`http://e.test/${'a'.repeat(3000)}`)).toEqual({ ok: false, reason: 'too-long' });
  });
});

describe('surtKey and urlId', () => {
  it('reverses host labels, keeps port, path and query', () => {
    expect(surtKey('http://www.example.test:8080/a/b?x=1')).toBe('test,example,www:8080)/a/b?x=1');
    expect(surtKey('http://127.0.0.1:4000/')).toBe('127.0.0.1:4000)/');
  });

  it('gives a stable 40-hex id per canonical URL', () => {
    expect(urlId('http://example.test/')).toMatch(/^[0-9a-f]{40}$/);
    expect(urlId('http://example.test/')).toBe(urlId('http://example.test/'));
    expect(urlId('http://example.test/')).not.toBe(urlId('http://example.test/a'));
  });
});
