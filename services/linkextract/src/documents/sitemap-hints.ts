import type { Changefreq } from '@crawler/core';

const CHANGEFREQS: ReadonlySet<string> = new Set<Changefreq>([
  'always',
  'hourly',
  'daily',
  'weekly',
  'monthly',
  'yearly',
  'never',
]);

/** Earliest lastmod believed: earlier ones are placeholder dates (0001-01-01, 1970-01-01), not edits. */
export const EARLIEST_LASTMOD_MS = Date.UTC(1995, 0, 1);
/** How far past the sitemap's fetch a lastmod may lie (time zones, clock skew) before it is ignored. */
export const LASTMOD_FUTURE_SLACK_MS = 24 * 60 * 60 * 1000;

// W3C datetime (the profile sitemaps.org names): YYYY, YYYY-MM, YYYY-MM-DD, then optionally
// Thh:mm[:ss[.s+]] and a zone (Z, +hh:mm). Tolerated because sites write them: a space for the T,
// no zone (read as UTC), +hhmm and +hh.
const W3C_DATETIME =
  /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?)?)?)?$/;

/**
 * A sitemap `<changefreq>`, lowercased, or null for anything but the seven values sitemaps.org
 * defines: a made-up value is a guess we cannot convert into a rate.
 */
export function parseChangefreq(text: string): Changefreq | null {
  const value = text.trim().toLowerCase();
  return CHANGEFREQS.has(value) ? (value as Changefreq) : null;
}

/**
 * A sitemap `<lastmod>` as epoch ms, or null when it is not a real W3C datetime, lies before
 * 1995, or lies more than a day past `fetchedAt` (the sitemap's fetch). A future date is ignored,
 * not clamped: clamped to the fetch it would claim "changed just now", which the sitemap did not
 * say; a generator that stamps the future is broken, and its other dates are no better.
 */
export function parseLastmod(text: string, fetchedAt: number): number | null {
  const match = W3C_DATETIME.exec(text.trim());
  if (!match) return null;
  const [
    ,
    year,
    month = '01',
    day = '01',
    hour = '00',
    minute = '00',
    second = '00',
    fraction = '',
    ,
    sign,
    zoneHours = '00',
    zoneMinutes = '00',
  ] = match;
  const parts = [year, month, day, hour, minute, second].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const [y, mo, d, h, mi, s] = parts;
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59 || Number(zoneHours) > 14 || Number(zoneMinutes) > 59)
    return null;
  const local = Date.UTC(y, mo - 1, d, h, mi, s, Math.floor(Number(`0.${fraction || '0'}`) * 1000));
  // Date.UTC rolls 2024-02-30 over into March: a day that does not exist is refused, not moved.
  if (new Date(local).getUTCDate() !== d) return null;
  const offset = sign ? (sign === '-' ? -1 : 1) * (Number(zoneHours) * 60 + Number(zoneMinutes)) * 60_000 : 0;
  const at = local - offset;
  if (at < EARLIEST_LASTMOD_MS || at > fetchedAt + LASTMOD_FUTURE_SLACK_MS) return null;
  return at;
}
