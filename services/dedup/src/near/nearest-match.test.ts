import { describe, expect, it } from 'vitest';
import { acceptsSameSite, nearestMatches, type IndexedPage } from './nearest-match.js';

const query = { body: 0b1111n, pairs: 0n, title: 0n, tokens: 100 };
const limits = { body: 3, title: 12, pairs: 18 };
const page = (overrides: Partial<IndexedPage>): IndexedPage => ({ body: 0b1111n, pairs: 0n, title: 0n, urlTag: 'bbbbbbbb', digest: 'd-other', ...overrides });

describe('nearestMatches', () => {
  it('returns candidates within k bits, closest first', () => {
    const matches = nearestMatches(query, 'aaaaaaaa', 'd-self', [page({ body: 0b0000n, digest: 'far' }), page({ body: 0b1110n, digest: 'one' }), page({ body: 0b1000n, digest: 'three' })], limits);
    expect(matches.map((match) => [match.page.digest, match.distance, match.titleDistance])).toEqual([
      ['one', 1, 0],
      ['three', 3, 0],
    ]);
  });

  it('skips the page\'s own earlier versions and exact copies', () => {
    expect(nearestMatches(query, 'aaaaaaaa', 'd-self', [page({ urlTag: 'aaaaaaaa' }), page({ digest: 'd-self' })], limits)).toEqual([]);
  });

  it('refuses a headline too far off, and word pairs too far off, even with an equal body', () => {
    expect(nearestMatches(query, 'aaaaaaaa', 'd-self', [page({ title: (1n << 13n) - 1n })], limits)).toEqual([]);
    expect(nearestMatches(query, 'aaaaaaaa', 'd-self', [page({ pairs: (1n << 19n) - 1n })], limits)).toEqual([]);
    expect(nearestMatches({ ...query, title: null }, 'aaaaaaaa', 'd-self', [page({ title: (1n << 13n) - 1n })], limits)).toHaveLength(1);
  });

  it('asks a match on the same site for its headline within k too', () => {
    const [match] = nearestMatches(query, 'aaaaaaaa', 'd-self', [page({ title: 0b11111n })], limits);
    expect(match!.titleDistance).toBe(5);
    expect(acceptsSameSite(match!, limits)).toBe(false);
    expect(acceptsSameSite({ ...match!, titleDistance: 2 }, limits)).toBe(true);
    expect(acceptsSameSite({ ...match!, titleDistance: null }, limits)).toBe(true);
  });
});
