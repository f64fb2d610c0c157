import { gunzipSync } from 'node:zlib';
import { TextDecoder } from 'node:util';

/** The body bytes as they came from the server (undoing the bus compression). */
export function rawBody(body: Buffer, bodyEncoding: string): Buffer {
  return bodyEncoding === 'gzip' ? gunzipSync(body) : body;
}

/** Decodes text with a WHATWG charset label; unknown labels fall back to UTF-8, bad bytes become U+FFFD. */
export function decodeText(bytes: Buffer, charset: string | null): { text: string; charset: string } {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset ?? 'utf-8', { fatal: false });
  } catch {
    decoder = new TextDecoder('utf-8', { fatal: false });
  }
  return { text: decoder.decode(bytes), charset: decoder.encoding };
}
