import { STOP_WORDS } from './stop-words.js';

/** Scripts written without spaces between words: these need a dictionary-based segmenter. */
const UNSPACED_SCRIPT = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff]/;
/** A word: letters and digits, with apostrophe parts ("o'clock", "l’eau"). */
export const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;
const NON_ASCII = /[^\x00-\x7f]/;

const segmenters = new Map<string, Intl.Segmenter>();

function segmenter(lang: string | null): Intl.Segmenter {
  const locale = lang && /^(zh|ja|th|lo|km|my)\b/i.test(lang) ? lang.slice(0, 2).toLowerCase() : 'zh';
  let found = segmenters.get(locale);
  if (!found) {
    found = new Intl.Segmenter(locale, { granularity: 'word' });
    segmenters.set(locale, found);
  }
  return found;
}

/**
 * The content words of a text, lower-cased, in order: words by Unicode letters and digits, or by
 * Intl.Segmenter where the script puts no spaces between words (Chinese, Japanese, Thai...);
 * stop words and one-letter Latin tokens dropped. NFKC folds full-width forms to plain ones.
 */
export function tokenize(text: string, lang: string | null = null): string[] {
  const ascii = !NON_ASCII.test(text);
  const normalized = ascii ? text.toLowerCase() : text.normalize('NFKC').toLowerCase();
  const tokens: string[] = [];
  const keep = (word: string) => {
    if (STOP_WORDS.has(word)) return;
    if (word.length === 1 && word.charCodeAt(0) < 0x2e80) return;
    tokens.push(word);
  };
  if (ascii) {
    forEachAsciiWord(normalized, keep);
  } else if (UNSPACED_SCRIPT.test(normalized)) {
    for (const segment of segmenter(lang).segment(normalized)) if (segment.isWordLike) keep(segment.segment);
  } else {
    for (const match of normalized.matchAll(WORD)) keep(match[0]);
  }
  return tokens;
}

/**
 * `WORD` for lower-cased ASCII text, without the regex: a match array per word made tokenizing cost
 * as much as hashing. In ASCII, letters are a-z (the text is lower-cased) and the apostrophe is '.
 */
export function forEachAsciiWord(text: string, visit: (word: string) => void): void {
  const length = text.length;
  let i = 0;
  while (i < length) {
    if (!isAsciiWordChar(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    while (i < length && isAsciiWordChar(text.charCodeAt(i))) i++;
    while (text.charCodeAt(i) === 0x27 && isAsciiLetter(text.charCodeAt(i + 1))) {
      i += 2;
      while (i < length && isAsciiLetter(text.charCodeAt(i))) i++;
    }
    visit(text.slice(start, i));
  }
}

function isAsciiLetter(code: number): boolean {
  return code >= 0x61 && code <= 0x7a;
}

function isAsciiWordChar(code: number): boolean {
  return isAsciiLetter(code) || (code >= 0x30 && code <= 0x39);
}
