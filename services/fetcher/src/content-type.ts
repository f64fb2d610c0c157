/** The media type of a Content-Type header: lowercase, without parameters. */
export function mediaType(header: string | undefined): string | null {
  if (!header) return null;
  const type = header.split(';', 1)[0]!.trim().toLowerCase();
  return type || null;
}

/**
 * What the body really is when the header is missing or generic: a few leading bytes decide, as
 * browsers' MIME sniffing does for the types a crawler cares about.
 */
export function sniffMediaType(body: Buffer): string | null {
  const head = body.subarray(0, 512).toString('latin1').replace(/^\uFEFF|^\xEF\xBB\xBF/, '').trimStart().toLowerCase();
  if (head.startsWith('%pdf-')) return 'application/pdf';
  if (body[0] === 0x89 && head.startsWith('\x89png')) return 'image/png';
  if (body[0] === 0xff && body[1] === 0xd8) return 'image/jpeg';
  if (head.startsWith('gif8')) return 'image/gif';
  if (/^<!doctype html|^<html|^<head|^<body|^<!--|^<title|^<script|^<div|^<p[ >]|^<a /.test(head)) return 'text/html';
  if (head.startsWith('<?xml')) return /<rss|<feed/.test(head) ? 'application/rss+xml' : 'application/xml';
  return null;
}
