/**
 * What the fingerprint store keeps for a digest: the fetch that first had this content, the
 * template its digest was computed with, the judge's verdict, and whether that page was itself a
 * near duplicate (so a re-crawl repeats the decision instead of calling the copy "unchanged").
 */
export interface Registration {
  url: string;
  fetchedAt: number;
  template: string;
  /** null: not judged yet (no judge, or the judge failed); judged on the next sighting. */
  verdict: string | null;
  nearOf: string | null;
  distance: number | null;
}

/**
 * Tab-separated: canonical URLs contain no tab (the URL parser strips it), verdicts are
 * sanitized. The older `fetchedAt url` form (before templates) is still read.
 */
export function encodeRegistration(registration: Registration): string {
  const { fetchedAt, url, template, verdict, nearOf, distance } = registration;
  return [fetchedAt, url, template, verdict ?? '', nearOf ?? '', distance ?? ''].join('\t');
}

export function decodeRegistration(value: string): Registration {
  if (!value.includes('\t')) {
    const space = value.indexOf(' ');
    const legacy =
      space > 0
        ? { fetchedAt: Number(value.slice(0, space)), url: value.slice(space + 1) }
        : { fetchedAt: 0, url: value };
    return { ...legacy, template: '', verdict: null, nearOf: null, distance: null };
  }
  const [fetchedAt, url, template, verdict, nearOf, distance] = value.split('\t');
  return {
    fetchedAt: Number(fetchedAt),
    url: url ?? '',
    template: template ?? '',
    verdict: verdict || null,
    nearOf: nearOf || null,
    distance: distance ? Number(distance) : null,
  };
}
