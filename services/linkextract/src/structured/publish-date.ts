/** Meta names and properties that carry a publication date, most specific first. */
const META_KEYS = [
  'article:published_time',
  'og:published_time',
  'datepublished',
  'publishdate',
  'publish-date',
  'publish_date',
  'pubdate',
  'publication_date',
  'dc.date.issued',
  'dcterms.issued',
  'dc.date',
  'dcterms.date',
  'dcterms.created',
  'citation_publication_date',
  'citation_date',
  'parsely-pub-date',
  'sailthru.date',
  'date',
];
const EARLIEST = Date.UTC(1990, 0, 1);
/** Clock skew and time zones: a date up to two days ahead is accepted. */
const FUTURE_SLACK_MS = 2 * 24 * 3600 * 1000;

export interface DateSources {
  jsonLd: string | null;
  metas: ReadonlyMap<string, readonly string[]>;
  microdata: ReadonlyMap<string, readonly string[]>;
}

/**
 * The publication date in epoch milliseconds, or null: JSON-LD datePublished, then date metas,
 * then microdata datePublished. Only ISO-8601-like and RFC 2822 dates between 1990 and now are
 * believed; anything else (a bare year, "yesterday") is ignored rather than guessed.
 */
export function findPublishedAt(sources: DateSources, now = Date.now()): number | null {
  const candidates = [
    sources.jsonLd,
    ...META_KEYS.map((key) => sources.metas.get(key)?.[0] ?? null),
    sources.microdata.get('microdata:datePublished')?.[0] ?? null,
  ];
  for (const candidate of candidates) {
    if (!candidate) continue;
    const time = parseDate(candidate);
    if (time !== null && time >= EARLIEST && time <= now + FUTURE_SLACK_MS) return time;
  }
  return null;
}

const ISO_LIKE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?\s*(?:Z|[+-]\d{2}:?\d{2})?)?$/i;
const COMPACT = /^(\d{4})(\d{2})(\d{2})$/;
const RFC_2822 =
  /^(?:[a-z]{3},\s*)?\d{1,2}\s+[a-z]{3}\s+\d{4}\s+\d{2}:\d{2}(?::\d{2})?\s*(?:gmt|utc|[+-]\d{4}|[a-z]{3})?$/i;

export function parseDate(value: string): number | null {
  const text = value.trim();
  const compact = text.match(COMPACT);
  const normalized = compact
    ? `${compact[1]}-${compact[2]}-${compact[3]}`
    : text.replace(/ (?=\d{2}:)/, 'T').replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  if (!ISO_LIKE.test(normalized) && !RFC_2822.test(text)) return null;
  const time = Date.parse(ISO_LIKE.test(normalized) ? normalized : text);
  return Number.isNaN(time) ? null : time;
}
