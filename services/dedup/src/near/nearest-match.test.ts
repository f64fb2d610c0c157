import { describe, expect, it } from 'vitest';
import { acceptsSameSite, nearestMatches, type IndexedPage } from './nearest-match.js';

const query = { body: 0b1111n, pairs: 0n, title: 0n, tokens: 100, headlineWords: 4 };
const limits = { body: 3, title: 12, pairs: 18, sameHeadline: 6, sameHeadlinePairs: 12 };
const page = (overrides: Partial<IndexedPage>): IndexedPage => ({
  body: 0b1111n,
  pairs: 0n,
  title: 0n,
  urlTag: 'bbbbbbbb',
  digest: 'd-other',
  ...overrides,
});

describe('nearestMatches', () => {
  it('returns candidates within k bits, closest first', () => {
    const matches = nearestMatches(
      query,
      'aaaaaaaa',
      'd-self',
      [
        page({ body: 0b0000n, digest: 'far' }),
        page({ body: 0b1110n, digest: 'one' }),
        page({ body: 0b1000n, digest: 'three' }),
      ],
      { ...limits, sameHeadline: 0 },
    );
    expect(matches.map((match) => [match.page.digest, match.distance, match.titleDistance])).toEqual([
      ['one', 1, 0],
      ['three', 3, 0],
    ]);
  });

  it("skips the page's own earlier versions and exact copies", () => {
    expect(
      nearestMatches(query, 'aaaaaaaa', 'd-self', [page({ urlTag: 'aaaaaaaa' }), page({ digest: 'd-self' })], limits),
    ).toEqual([]);
  });

  it('refuses a headline too far off, and word pairs too far off, even with an equal body', () => {
    expect(nearestMatches(query, 'aaaaaaaa', 'd-self', [page({ title: (1n << 13n) - 1n })], limits)).toEqual([]);
    expect(nearestMatches(query, 'aaaaaaaa', 'd-self', [page({ pairs: (1n << 19n) - 1n })], limits)).toEqual([]);
    expect(
      nearestMatches({ ...query, title: null }, 'aaaaaaaa', 'd-self', [page({ title: (1n << 13n) - 1n })], limits),
    ).toHaveLength(1);
  });

  it('reaches 6 bits into the body for the same specific headline, with word pairs within 12', () => {
    const drifted = (overrides: Partial<IndexedPage>) => page({ body: 0b1111n ^ (0b111111n << 8n), ...overrides });
    expect(
      nearestMatches(query, 'aaaaaaaa', 'd-self', [drifted({})], limits).map((match) => [
        match.distance,
        match.titleDistance,
      ]),
    ).toEqual([[6, 0]]);
    expect(
      nearestMatches(query, 'aaaaaaaa', 'd-self', [drifted({ body: 0b1111n ^ (0b1111111n << 8n) })], limits),
    ).toEqual([]);
    expect(nearestMatches(query, 'aaaaaaaa', 'd-self', [drifted({ title: 1n })], limits)).toEqual([]);
    expect(nearestMatches(query, 'aaaaaaaa', 'd-self', [drifted({ pairs: (1n << 13n) - 1n })], limits)).toEqual([]);
    expect(nearestMatches({ ...query, headlineWords: 2 }, 'aaaaaaaa', 'd-self', [drifted({})], limits)).toEqual([]);
    expect(nearestMatches(query, 'aaaaaaaa', 'd-self', [drifted({})], { ...limits, sameHeadline: 0 })).toEqual([]);
    // Within k the usual word-pair limit holds, same headline or not.
    expect(nearestMatches(query, 'aaaaaaaa', 'd-self', [page({ pairs: (1n << 15n) - 1n })], limits)).toHaveLength(1);
  });

  it('asks a match on the same site for its headline within k too', () => {
    const [match] = nearestMatches(query, 'aaaaaaaa', 'd-self', [page({ title: 0b11111n })], limits);
    expect(match!.titleDistance).toBe(5);
    expect(acceptsSameSite(match!, limits)).toBe(false);
    expect(acceptsSameSite({ ...match!, titleDistance: 2 }, limits)).toBe(true);
    expect(acceptsSameSite({ ...match!, titleDistance: null }, limits)).toBe(true);
  });
});
