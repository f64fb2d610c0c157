import { decodeSketch, encodeSketch, type ShingleSketch } from './fingerprint/shingle-sketch.js';

/**
 * What the fingerprint store keeps for a digest: the fetch that first had this content, the
 * template its digest was computed with, the judge's verdict, whether that page was itself a near
 * duplicate (so a re-crawl repeats the decision instead of calling the copy "unchanged"), and what
 * verifies a match against it: its page's size and the sketch of its text (see near-duplicate-rule.ts).
 */
export interface Registration {
  url: string;
  fetchedAt: number;
  template: string;
  /** null: not judged yet (no judge, or the judge failed); judged on the next sighting. */
  verdict: string | null;
  nearOf: string | null;
  distance: number | null;
  /** Characters of visible text on the page; null in registrations written before it was kept. */
  pageChars: number | null;
  /** Sketch of the main text; null for short texts and media, and in older registrations. */
  sketch: ShingleSketch | null;
}

/**
 * Tab-separated: canonical URLs contain no tab (the URL parser strips it), verdicts are
 * sanitized. Older forms (without size and sketch; `fetchedAt url` before templates) are still read.
 */
export function encodeRegistration(registration: Registration): string {
  const { fetchedAt, url, template, verdict, nearOf, distance, pageChars, sketch } = registration;
  return [
    fetchedAt,
    url,
    template,
    verdict ?? '',
    nearOf ?? '',
    distance ?? '',
    pageChars ?? '',
    sketch ? encodeSketch(sketch) : '',
  ].join('\t');
}

export function decodeRegistration(value: string): Registration {
  const unknown = { template: '', verdict: null, nearOf: null, distance: null, pageChars: null, sketch: null };
  if (!value.includes('\t')) {
    const space = value.indexOf(' ');
    const legacy =
      space > 0
        ? { fetchedAt: Number(value.slice(0, space)), url: value.slice(space + 1) }
        : { fetchedAt: 0, url: value };
    return { ...legacy, ...unknown };
  }
  const [fetchedAt, url, template, verdict, nearOf, distance, pageChars, sketch] = value.split('\t');
  return {
    fetchedAt: Number(fetchedAt),
    url: url ?? '',
    template: template ?? '',
    verdict: verdict || null,
    nearOf: nearOf || null,
    distance: distance ? Number(distance) : null,
    pageChars: pageChars ? Number(pageChars) : null,
    sketch: sketch ? decodeSketch(sketch) : null,
  };
}
