import { describe, expect, it } from 'vitest';
import { findPublishedAt, parseDate } from './publish-date.js';

const none = new Map<string, string[]>();

describe('publish date', () => {
  it('prefers JSON-LD, then date metas in order, then microdata', () => {
    const metas = new Map([
      ['date', ['2020-01-01']],
      ['article:published_time', ['2021-06-01T08:00:00+02:00']],
    ]);
    expect(findPublishedAt({ jsonLd: '2022-02-02T00:00:00Z', metas, microdata: none })).toBe(Date.UTC(2022, 1, 2));
    expect(findPublishedAt({ jsonLd: null, metas, microdata: none })).toBe(Date.UTC(2021, 5, 1, 6));
    expect(
      findPublishedAt({ jsonLd: null, metas: none, microdata: new Map([['microdata:datePublished', ['2019-03-04']]]) }),
    ).toBe(Date.UTC(2019, 2, 4));
  });

  it('skips unbelievable candidates for the next one', () => {
    const now = Date.UTC(2025, 0, 1);
    expect(
      findPublishedAt(
        {
          jsonLd: '2999-01-01',
          metas: new Map([
            ['pubdate', ['1970-01-01']],
            ['date', ['2024-12-31']],
          ]),
          microdata: none,
        },
        now,
      ),
    ).toBe(Date.UTC(2024, 11, 31));
    expect(findPublishedAt({ jsonLd: 'yesterday', metas: none, microdata: none }, now)).toBeNull();
  });

  it.each([
    ['2024-05-06', Date.UTC(2024, 4, 6)],
    ['20240506', Date.UTC(2024, 4, 6)],
    ['2024-05-06 07:08:09+0200', Date.UTC(2024, 4, 6, 5, 8, 9)],
    ['Mon, 06 May 2024 07:08:09 GMT', Date.UTC(2024, 4, 6, 7, 8, 9)],
    ['2024', null],
    ['May 2024', null],
  ])('parses %s', (text, expected) => {
    expect(parseDate(text)).toBe(expected);
  });
});
