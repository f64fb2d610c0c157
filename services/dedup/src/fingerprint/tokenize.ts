import { STOP_WORDS } from './stop-words.js';

/** Scripts written without spaces between words: these need a dictionary-based segmenter. */
const UNSPACED_SCRIPT = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff]/;
const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;
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
  const normalized = NON_ASCII.test(text) ? text.normalize('NFKC').toLowerCase() : text.toLowerCase();
  const tokens: string[] = [];
  const keep = (word: string) => {
    if (STOP_WORDS.has(word)) return;
    if (word.length === 1 && word.charCodeAt(0) < 0x2e80) return;
    tokens.push(word);
  };
  if (UNSPACED_SCRIPT.test(normalized)) {
    for (const segment of segmenter(lang).segment(normalized)) if (segment.isWordLike) keep(segment.segment);
  } else {
    for (const match of normalized.matchAll(WORD)) keep(match[0]);
  }
  return tokens;
}
