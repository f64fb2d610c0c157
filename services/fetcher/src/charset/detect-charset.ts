import chardet from 'chardet';
import { encodingName } from '@crawler/core';
import { detectCyrillic } from './detect-cyrillic.js';

/** Enough text to tell encodings apart; more only costs time. */
const SAMPLE_BYTES = 64 * 1024;
/** Below this chardet confidence (0-100) a guess is worse than the standard's default. */
const MIN_CONFIDENCE = 20;

/**
 * Guesses the encoding of undeclared bytes: null for pure ASCII (any ASCII-compatible encoding
 * reads it the same), UTF-8 when the bytes are valid UTF-8 (legacy encodings almost never are),
 * a Cyrillic code page when the text reads as Cyrillic in one (chardet mistakes most Cyrillic
 * pages with markup for windows-1252), otherwise chardet's statistical guess if it is confident
 * enough (its CJK guesses are right on real pages).
 */
export function detectCharset(body: Buffer): string | null {
  const sample = body.subarray(0, SAMPLE_BYTES);
  if (!sample.some((byte) => byte >= 0x80)) return null;
  if (isUtf8(sample)) return 'utf-8';
  const cyrillic = detectCyrillic(sample);
  if (cyrillic) return cyrillic.charset;
  for (const candidate of chardet.analyse(sample)) {
    if (candidate.confidence < MIN_CONFIDENCE) break;
    const name = encodingName(candidate.name);
    if (name && !name.startsWith('utf-')) return name;
  }
  return null;
}

/** Valid UTF-8, allowing a sequence cut at the end (the sample or the body may stop mid-character). */
function isUtf8(bytes: Buffer): boolean {
  let end = bytes.length;
  for (let back = 1; back <= 3 && end - back >= 0; back++) {
    const byte = bytes[end - back]!;
    if ((byte & 0xc0) !== 0x80) {
      const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
      if (needed > back) end -= back;
      break;
    }
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, end));
    return true;
  } catch {
    return false;
  }
}
