import { describe, expect, it } from 'vitest';
import { canonicalizeUrl } from '../canonical-url.js';
import { type HrefForm, relativePath, writeHref } from './href-forms.js';

const A = 'http://127.0.0.1:4100';
const B = 'http://127.0.0.1:4101';
const FORMS: HrefForm[] = [
  'absolute',
  'root',
  'relative',
  'dot',
  'parent',
  'fragment',
  'upper-scheme',
  'scheme-relative',
  'dot-segments',
];
const PAIRS: [string, string][] = [
  ['/', '/article/8'],
  ['/article/7', '/article/8'],
  ['/article/7', '/section/world'],
  ['/article/7', '/article/7?print=1'],
  ['/docs/a', '/docs/'],
  ['/calendar/2026/12', '/calendar/2027/01'],
  ['/a/b/c', '/'],
  ['/tags/x', '/tags/x?sort=popular'],
];

describe('writeHref', () => {
  it.each(FORMS)('resolves back to the target in form %s, same host and across hosts', (form) => {
    for (const [from, to] of PAIRS) {
      expect(canonicalizeUrl(writeHref({ origin: A, path: from }, { origin: A, path: to }, form), `${A}${from}`)).toBe(
        `${A}${to}`,
      );
      expect(canonicalizeUrl(writeHref({ origin: A, path: from }, { origin: B, path: to }, form), `${A}${from}`)).toBe(
        `${B}${to}`,
      );
    }
  });

  it('writes the short relative forms a human would', () => {
    expect(relativePath('/article/7', '/article/8')).toBe('8');
    expect(relativePath('/article/7', '/section/world')).toBe('../section/world');
    expect(relativePath('/docs/a', '/docs/')).toBe('./');
    expect(writeHref({ origin: A, path: '/article/7' }, { origin: A, path: '/article/8' }, 'parent')).toBe(
      '../article/8',
    );
    expect(writeHref({ origin: A, path: '/x' }, { origin: A, path: '/y' }, 'upper-scheme')).toBe(
      'HTTP://127.0.0.1:4100/y',
    );
  });
});
