import { gunzipSync, gzipSync } from 'node:zlib';
import iconv from 'iconv-lite';
import type { BodyEncoding } from './messages.js';

/**
 * A page body on the bus (`body` + `bodyEncoding` of FetchResult, ParsedPage and StoredPage) and
 * its text: every stage that compresses, uncompresses or decodes a body does it here.
 */

/**
 * The body as it travels: gzip level 1 with a window no larger than the body, since setting up a
 * 32 KiB window costs more than compressing a 4 KiB page. Synchronous on purpose: for pages of a
 * few KiB the thread pool's hand-off costs several times the work.
 */
export function encodeBody(body: Buffer, encoding: BodyEncoding): Buffer {
  if (encoding === 'identity') return body;
  const windowBits = Math.min(15, Math.max(9, Math.ceil(Math.log2(body.length + 1)) + 1));
  return gzipSync(body, { level: 1, windowBits });
}

/** The body bytes as the server sent them (bus compression undone). */
export function rawBody(body: Buffer, bodyEncoding: BodyEncoding | string): Buffer {
  return bodyEncoding === 'gzip' ? gunzipSync(body) : body;
}

// Node 20's TextDecoder decodes windows-1252 as Latin-1 (nodejs/node#56542): 0x80 becomes U+0080
// instead of €, and curly quotes and dashes are lost. WHATWG maps the latin1 and ascii labels to it too.
const windows1252Broken = new TextDecoder('windows-1252').decode(Uint8Array.of(0x80)) !== '€';
// ICU's Shift_JIS and IBM866 tables swap 0x1A, 0x1C and 0x7F (IBM PC control codes); the Encoding
// Standard reads every byte below 0x80 of these encodings as ASCII.
const controlsSwapped = new TextDecoder('shift_jis').decode(Uint8Array.of(0x1a)) !== '\x1a';
const SWAPPED_ENCODINGS = new Set(['shift_jis', 'ibm866']);
const UNSWAP: Record<string, string> = { '\x1c': '\x1a', '\x7f': '\x1c', '\x1a': '\x7f' };
// WHATWG encodings Node's ICU lacks (its only label is its name), decoded by iconv-lite.
const ICONV_ONLY: ReadonlySet<string> = new Set(['iso-8859-16']);

/**
 * The WHATWG encoding name of a charset label ("latin1" -> "windows-1252", "x-gbk" -> "gbk"),
 * or null for a label the Encoding Standard does not know (or only as "replacement").
 */
export function encodingName(label: string): string | null {
  const trimmed = label
    .trim()
    .replace(/^["']|["']$/g, '')
    .toLowerCase();
  // The Encoding Standard maps x-user-defined to its own decoder, which Node lacks; HTML reads it as windows-1252.
  if (trimmed === 'x-user-defined') return 'windows-1252';
  if (ICONV_ONLY.has(trimmed)) return trimmed;
  try {
    return new TextDecoder(trimmed).encoding;
  } catch {
    return null;
  }
}

export interface DecodedText {
  text: string;
  /** The WHATWG name of the encoding the text was decoded with. */
  charset: string;
}

/**
 * Decodes body bytes as the Encoding Standard does: `charset` is a WHATWG label (null or unknown
 * means UTF-8), bad bytes become U+FFFD, a byte order mark of the encoding itself is dropped.
 */
export function decodeText(bytes: Buffer, charset: string | null): DecodedText {
  const name = (charset && encodingName(charset)) ?? 'utf-8';
  if ((name === 'windows-1252' && windows1252Broken) || ICONV_ONLY.has(name))
    return { text: iconv.decode(bytes, name), charset: name };
  const text = new TextDecoder(name).decode(bytes);
  if (controlsSwapped && SWAPPED_ENCODINGS.has(name) && /[\x1a\x1c\x7f]/.test(text))
    return { text: text.replace(/[\x1a\x1c\x7f]/g, (char) => UNSWAP[char]!), charset: name };
  return { text, charset: name };
}

/**
 * The WHATWG name of the encoding an XML declaration at the start of a body names
 * (`<?xml version="1.0" encoding="KOI8-R"?>`, after blanks a generator may have left), or null.
 * A UTF-16 label in a declaration readable as ASCII cannot be right: UTF-8, as HTML does for meta.
 */
export function xmlDeclaredCharset(bytes: Buffer): string | null {
  const label = bytes
    .subarray(0, 256)
    .toString('latin1')
    .match(/^\s*<\?xml\s[^>]*?\bencoding\s*=\s*["']([^"']+)["']/)?.[1];
  const name = label ? encodingName(label) : null;
  return name?.startsWith('utf-16') ? 'utf-8' : name;
}
