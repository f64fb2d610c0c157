import { isRedirectStatus } from '../redirect-capture.js';

/**
 * One line of a CDXJ index as pywb and WACZ read it: `<surt key> <14-digit timestamp> <JSON>`, the
 * JSON holding at least the record's url, mime, status, digest (SHA-1 payload digest in base32,
 * without its `sha1:` prefix, as pywb's own indexer writes it), length and offset in the file, and
 * the file's name. Readers keep fields they do not know, so the crawler may add its own.
 */
export interface CdxjFields {
  url: string;
  mime: string;
  status: string;
  digest: string;
  length: string;
  offset: string;
  filename: string;
  [field: string]: unknown;
}

export interface CdxjLine {
  key: string;
  timestamp: string;
  fields: CdxjFields;
}

/** The 14-digit timestamp of CDX indexes (seconds, UTC). */
export function cdxTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

export function formatCdxjLine(line: CdxjLine): string {
  return `${line.key} ${line.timestamp} ${JSON.stringify(line.fields)}`;
}

/** Throws on a line that is not CDXJ (a torn line, another format). */
export function parseCdxjLine(text: string): CdxjLine {
  const first = text.indexOf(' ');
  const second = text.indexOf(' ', first + 1);
  if (first <= 0 || second <= first || text[second + 1] !== '{') throw new SyntaxError('not a CDXJ line');
  return {
    key: text.slice(0, first),
    timestamp: text.slice(first + 1, second),
    fields: JSON.parse(text.slice(second + 1)) as CdxjFields,
  };
}

/**
 * What a line of the crawler's indexes points at: a revisit (pywb's `warc/revisit`), a redirect the
 * crawler followed (a response with a 3xx status: no page), or a page.
 */
export function cdxjCaptureKind(fields: Pick<CdxjFields, 'mime' | 'status'>): 'page' | 'revisit' | 'redirect' {
  if (fields.mime === 'warc/revisit') return 'revisit';
  return isRedirectStatus(Number(fields.status)) ? 'redirect' : 'page';
}

/** The digest as CDXJ keeps it: the base32 of `sha1:BASE32`. */
export function cdxDigest(payloadDigest: string): string {
  return payloadDigest.slice(payloadDigest.indexOf(':') + 1);
}

/** The media type of a Content-Type header, lowercased and without parameters, as CDX `mime` holds it. */
export function cdxMime(contentType: string | null | undefined): string {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return type || 'unk';
}
