export type CharsetSource = 'bom' | 'header' | 'meta' | 'default';

export interface SniffedCharset {
  charset: string;
  source: CharsetSource;
}

/** The WHATWG name of a charset label, or null if the label is unknown. */
export function normalizeCharsetLabel(label: string): string | null {
  try {
    return new TextDecoder(label.trim().replace(/^["']|["']$/g, '')).encoding;
  } catch {
    return null;
  }
}

const META_CHARSET = /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i;

/**
 * Chooses the charset a page is decoded with, in the HTML standard's order: byte order mark, HTTP
 * Content-Type, then a <meta> declaration in the first 1024 bytes; windows-1252 when nothing says.
 */
export function sniffCharset(body: Buffer, contentTypeHeader: string | undefined): SniffedCharset {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return { charset: 'utf-8', source: 'bom' };
  if (body[0] === 0xfe && body[1] === 0xff) return { charset: 'utf-16be', source: 'bom' };
  if (body[0] === 0xff && body[1] === 0xfe) return { charset: 'utf-16le', source: 'bom' };
  const fromHeader = contentTypeHeader?.match(/charset\s*=\s*["']?([^;"'\s]+)/i)?.[1];
  const headerCharset = fromHeader ? normalizeCharsetLabel(fromHeader) : null;
  if (headerCharset) return { charset: headerCharset, source: 'header' };
  const head = body.subarray(0, 1024).toString('latin1');
  const fromMeta = head.match(META_CHARSET)?.[1];
  const metaCharset = fromMeta ? normalizeCharsetLabel(fromMeta) : null;
  // A page that declares UTF-16 in ASCII bytes cannot be UTF-16; the standard reads it as UTF-8.
  if (metaCharset) return { charset: metaCharset.startsWith('utf-16') ? 'utf-8' : metaCharset, source: 'meta' };
  return { charset: 'windows-1252', source: 'default' };
}
