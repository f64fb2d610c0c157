/** The media type of a Content-Type header: lowercase, without parameters. */
export function mediaType(header: string | undefined): string | null {
  if (!header) return null;
  const type = header.split(';', 1)[0]!.trim().toLowerCase();
  return type || null;
}

/** Types a server sends when it does not know: the bytes have to say what they are. */
export const GENERIC_TYPES: ReadonlySet<string> = new Set([
  'application/octet-stream',
  'text/plain',
  'binary/octet-stream',
  'application/unknown',
  'unknown/unknown',
]);

/** Markup and text: a cut body is still worth parsing. Anything else (PDF, images) is useless cut. */
export function isTruncatable(type: string): boolean {
  return type.startsWith('text/') || type.endsWith('+xml') || type.endsWith('/xml') || type === 'application/xhtml+xml';
}

/** Binary formats recognisable by their first bytes, as browsers' MIME sniffing does. */
const SIGNATURES: [Buffer, string][] = [
  [Buffer.from('%PDF-', 'latin1'), 'application/pdf'],
  [Buffer.from('89504e470d0a1a0a', 'hex'), 'image/png'],
  [Buffer.from('ffd8ff', 'hex'), 'image/jpeg'],
  [Buffer.from('GIF8', 'latin1'), 'image/gif'],
  [Buffer.from('504b0304', 'hex'), 'application/zip'],
  [Buffer.from('1f8b08', 'hex'), 'application/gzip'],
];

function sniffBinary(body: Buffer): string | null {
  for (const [signature, type] of SIGNATURES) if (body.subarray(0, signature.length).equals(signature)) return type;
  if (body.subarray(0, 4).toString('latin1') === 'RIFF' && body.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'image/webp';
  return null;
}

/** Markup recognisable by its first non-blank characters. */
function sniffMarkup(body: Buffer): string | null {
  const head = body
    .subarray(0, 512)
    .toString('latin1')
    .replace(/^\xEF\xBB\xBF/, '')
    .trimStart()
    .toLowerCase();
  if (/^(?:<!doctype html|<html|<head|<body|<!--|<title|<script|<div|<p[ >]|<a |<table|<h1)/.test(head))
    return 'text/html';
  if (
    head.startsWith('<?xml') ||
    head.startsWith('<rss') ||
    head.startsWith('<feed') ||
    head.startsWith('<urlset') ||
    head.startsWith('<sitemapindex')
  ) {
    if (/<rss[\s>]/.test(head)) return 'application/rss+xml';
    if (/<feed[\s>]/.test(head)) return 'application/atom+xml';
    if (/<html[\s>]/.test(head)) return 'application/xhtml+xml';
    return 'application/xml';
  }
  return null;
}

/**
 * What the body really is. A missing or generic type is sniffed (binary signatures, then markup);
 * a textual type whose bytes start with a binary signature lies (a PDF served as text/html) and
 * the signature wins. Otherwise the header is believed: sniffing HTML out of a declared type
 * would open the door to content-type confusion.
 */
export function effectiveMediaType(declared: string | null, body: Buffer): { type: string | null; sniffed: boolean } {
  if (!declared || GENERIC_TYPES.has(declared)) {
    const sniffed = sniffBinary(body) ?? sniffMarkup(body);
    return sniffed ? { type: sniffed, sniffed: true } : { type: declared, sniffed: false };
  }
  if (isTruncatable(declared)) {
    const binary = sniffBinary(body);
    if (binary) return { type: binary, sniffed: true };
  }
  return { type: declared, sniffed: false };
}
