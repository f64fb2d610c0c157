import { gunzipSync } from 'node:zlib';
import { TextDecoder } from 'node:util';
import iconv from 'iconv-lite';

/** The body bytes as they came from the server (undoing the bus compression). */
export function rawBody(body: Buffer, bodyEncoding: string): Buffer {
  return bodyEncoding === 'gzip' ? gunzipSync(body) : body;
}

// Node 20's TextDecoder decodes windows-1252 as Latin-1 (nodejs/node#56542): 0x80 becomes U+0080
// instead of €, and curly quotes and dashes are lost. WHATWG maps latin1/ascii labels to it too.
const windows1252Broken = new TextDecoder('windows-1252').decode(Uint8Array.of(0x80)) !== '€';

/**
 * Decodes text with a WHATWG charset label; unknown labels fall back to UTF-8, bad bytes become
 * U+FFFD. The name returned is the encoding's canonical WHATWG name.
 */
export function decodeText(bytes: Buffer, charset: string | null): { text: string; charset: string } {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset ?? 'utf-8', { fatal: false });
  } catch {
    decoder = new TextDecoder('utf-8', { fatal: false });
  }
  if (decoder.encoding === 'windows-1252' && windows1252Broken)
    return { text: iconv.decode(bytes, 'windows-1252'), charset: 'windows-1252' };
  return { text: decoder.decode(bytes), charset: decoder.encoding };
}

/** The encoding an XML declaration names (`<?xml version="1.0" encoding="ISO-8859-1"?>`), if any. */
export function xmlDeclaredCharset(bytes: Buffer): string | null {
  return (
    bytes
      .subarray(0, 200)
      .toString('latin1')
      .match(/^\s*<\?xml[^>]*\bencoding\s*=\s*["']([\w.:-]+)["']/)?.[1] ?? null
  );
}
