import { describe, expect, it } from 'vitest';
import { EARLIEST_LASTMOD_MS, parseChangefreq, parseLastmod } from './sitemap-hints.js';

const fetchedAt = Date.UTC(2026, 0, 10, 12, 0, 0);

describe('parseLastmod', () => {
  it('reads every W3C datetime form, zones included', () => {
    expect(parseLastmod('2025', fetchedAt)).toBe(Date.UTC(2025, 0, 1));
    expect(parseLastmod('2025-07', fetchedAt)).toBe(Date.UTC(2025, 6, 1));
    expect(parseLastmod('2025-07-16', fetchedAt)).toBe(Date.UTC(2025, 6, 16));
    expect(parseLastmod('2025-07-16T19:20+01:00', fetchedAt)).toBe(Date.UTC(2025, 6, 16, 18, 20));
    expect(parseLastmod('2025-07-16T19:20:30+01:00', fetchedAt)).toBe(Date.UTC(2025, 6, 16, 18, 20, 30));
    expect(parseLastmod('2025-07-16T19:20:30.45+01:00', fetchedAt)).toBe(Date.UTC(2025, 6, 16, 18, 20, 30, 450));
    expect(parseLastmod('2025-07-16T19:20:30Z', fetchedAt)).toBe(Date.UTC(2025, 6, 16, 19, 20, 30));
    expect(parseLastmod('2025-07-16T19:20:30-05:30', fetchedAt)).toBe(Date.UTC(2025, 6, 17, 0, 50, 30));
  });

  it('tolerates what generators write: spaces around, a space for the T, no zone (UTC), +hhmm and +hh', () => {
    expect(parseLastmod('  2025-07-16 \n', fetchedAt)).toBe(Date.UTC(2025, 6, 16));
    expect(parseLastmod('2025-07-16 19:20:30', fetchedAt)).toBe(Date.UTC(2025, 6, 16, 19, 20, 30));
    expect(parseLastmod('2025-07-16T19:20:30+0100', fetchedAt)).toBe(Date.UTC(2025, 6, 16, 18, 20, 30));
    expect(parseLastmod('2025-07-16T19:20:30+01', fetchedAt)).toBe(Date.UTC(2025, 6, 16, 18, 20, 30));
  });

  it('refuses what is not a date', () => {
    for (const text of [
      '',
      'yesterday',
      '16/07/2025',
      'Wed, 16 Jul 2025 19:20:30 GMT',
      '2025-7-16',
      '2025-13-01',
      '2025-02-30',
      '2025-07-16T25:00Z',
      '2025-07-16T19:61Z',
      '2025-07-16T19:20:30+25:00',
      '1752693630',
      '2025-07-16T',
    ]) {
      expect(parseLastmod(text, fetchedAt), text).toBeNull();
    }
    expect(parseLastmod('2024-02-29', fetchedAt)).toBe(Date.UTC(2024, 1, 29));
  });

  it('ignores placeholder dates before 1995 and dates more than a day past the fetch', () => {
    expect(parseLastmod('0001-01-01', fetchedAt)).toBeNull();
    expect(parseLastmod('1970-01-01T00:00:00Z', fetchedAt)).toBeNull();
    expect(parseLastmod('1995-01-01', fetchedAt)).toBe(EARLIEST_LASTMOD_MS);
    expect(parseLastmod('2026-01-11T11:00:00Z', fetchedAt)).toBe(Date.UTC(2026, 0, 11, 11));
    expect(parseLastmod('2026-01-11T13:00:00Z', fetchedAt)).toBeNull();
    expect(parseLastmod('2099-01-01', fetchedAt)).toBeNull();
  });
});

describe('parseChangefreq', () => {
  it('keeps the seven sitemaps.org values, lowercased, and nothing else', () => {
    expect(['always', 'hourly', 'daily', 'weekly', 'monthly', 'yearly', 'never'].map(parseChangefreq)).toEqual([
      'always',
      'hourly',
      'daily',
      'weekly',
      'monthly',
      'yearly',
      'never',
    ]);
    expect(parseChangefreq(' Daily\n')).toBe('daily');
    for (const text of ['', 'often', 'biweekly', '1d', 'day']) expect(parseChangefreq(text), text).toBeNull();
  });
});
