import { decodeText } from '@crawler/core';

/** The single-byte Cyrillic encodings told apart; on a tie the earlier (more common on the web) wins. */
const CANDIDATES = ['windows-1251', 'koi8-r', 'koi8-u', 'iso-8859-5', 'ibm866', 'x-mac-cyrillic'] as const;

/**
 * Letter frequencies (%) of Cyrillic text: per letter the largest of Russian, Ukrainian and
 * Bulgarian (published letter counts), so that no language's common letter looks rare. Other
 * Cyrillic letters (Serbian, Macedonian) count as rare, not as wrong.
 */
// prettier-ignore
const FREQUENCY: Record<string, number> = {
  о: 10.97, а: 10.4, е: 8.45, и: 8.3, т: 7.1, н: 6.8, і: 5.7, с: 5.47, р: 4.9, в: 4.6, л: 4.4,
  к: 3.6, у: 3.5, д: 3.3, м: 3.21, п: 2.9, ъ: 2.6, з: 2.2, я: 2.2, ы: 1.9, ь: 1.74, г: 1.7,
  б: 1.6, ч: 1.44, й: 1.21, х: 1.2, ж: 0.94, ц: 0.8, ш: 0.8, ю: 0.8, ї: 0.8, ў: 0.5, щ: 0.5,
  є: 0.4, э: 0.32, ф: 0.26, ё: 0.1, ґ: 0.05,
};
const RARE_LETTER = 0.05;
const VOWELS = new Set([...'аеиоуыэюяёіїєў']);
/** Punctuation that Cyrillic text takes from the upper half of its code page. */
const PUNCTUATION = new Set([...'«»—–…“”„‘’№•·\u00a0\u00ad']);

/**
 * A first-order model of letter case: a capital starts a word (or continues an all-capitals
 * one), a small letter follows a letter. A code page read as the wrong one turns small letters
 * into capitals, or into symbols, inside words.
 */
type Prev = 'start' | 'lower' | 'upper';
const CASE_BITS: Record<Prev, { upper: number; lower: number }> = {
  start: { upper: Math.log2(0.2), lower: Math.log2(0.8) },
  lower: { upper: Math.log2(0.01), lower: Math.log2(0.99) },
  upper: { upper: Math.log2(0.6), lower: Math.log2(0.4) },
};
const PUNCTUATION_BITS = Math.log2(0.002);
const SYMBOL_BITS = Math.log2(1e-6);
/** A Cyrillic letter glued to a Latin one is mixed script: unlikely in text, usual in a wrong reading of Latin. */
const AFTER_LATIN_BITS = -4;

/**
 * Measured on chardet's real-world test pages (bench/src/charset-bench.ts): Cyrillic text in its
 * own code page scores -4.5 to -5.2 bits per upper-half byte, Greek read as Cyrillic -5.9 and
 * below, CJK and Latin pages -7 and below; Hebrew read as windows-1251 scores -5.3 to -5.6 but
 * has 19-28% vowels against Cyrillic's 40-45%.
 */
const MIN_BITS = -5.6;
const MIN_VOWEL_SHARE = 0.34;
/** Fewer letters than this say too little (a name, a word in a Latin page). */
const MIN_LETTERS = 16;

/** How each upper-half byte (0x80-0xFF) reads in one code page. */
interface CodePage {
  charset: string;
  /** log2 frequency of the letter (case folded), NaN for punctuation and symbols. */
  letterBits: Float64Array;
  kind: Uint8Array;
  vowel: Uint8Array;
}
const SYMBOL = 0;
const PUNCT = 1;
const LOWER = 2;
const UPPER = 3;

const TOTAL = Object.values(FREQUENCY).reduce((sum, value) => sum + value, 0);
const CODE_PAGES: CodePage[] = CANDIDATES.map((charset) => {
  const text = decodeText(Buffer.from(Array.from({ length: 128 }, (_, i) => 0x80 + i)), charset).text;
  const page: CodePage = {
    charset,
    letterBits: new Float64Array(128),
    kind: new Uint8Array(128),
    vowel: new Uint8Array(128),
  };
  for (let i = 0; i < 128; i++) {
    const char = text[i]!;
    const lower = char.toLowerCase();
    if (char >= '\u0400' && char <= '\u04ff' && lower !== char.toUpperCase()) {
      page.kind[i] = lower === char ? LOWER : UPPER;
      page.letterBits[i] = Math.log2((FREQUENCY[lower] ?? RARE_LETTER) / TOTAL);
      page.vowel[i] = VOWELS.has(lower) ? 1 : 0;
    } else page.kind[i] = PUNCTUATION.has(char) ? PUNCT : SYMBOL;
  }
  return page;
});

export interface CyrillicReading {
  charset: string;
  /** Mean log2 likelihood per upper-half byte under the model. */
  bits: number;
  letters: number;
  vowelShare: number;
}

/**
 * Reads undeclared single-byte text as each Cyrillic code page and scores each reading by how
 * much it looks like Cyrillic prose (letter frequencies and case). The best reading, if the
 * text is Cyrillic at all; null for other scripts and for too little text. Only the upper half
 * of the bytes differs between the candidates, so only it is scored.
 */
export function detectCyrillic(sample: Buffer): CyrillicReading | null {
  let best: CyrillicReading | null = null;
  for (const page of CODE_PAGES) {
    const reading = readAs(sample, page);
    if (!best || reading.bits > best.bits) best = reading;
  }
  if (!best || best.letters < MIN_LETTERS || best.bits < MIN_BITS || best.vowelShare < MIN_VOWEL_SHARE) return null;
  return best;
}

function readAs(sample: Buffer, page: CodePage): CyrillicReading {
  let total = 0;
  let high = 0;
  let letters = 0;
  let vowels = 0;
  let prev: Prev = 'start';
  let afterLatin = false;
  for (let i = 0; i < sample.length; i++) {
    const byte = sample[i]!;
    if (byte < 0x80) {
      afterLatin = (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a);
      prev = 'start';
      continue;
    }
    high++;
    const index = byte - 0x80;
    const kind = page.kind[index]!;
    if (kind === LOWER || kind === UPPER) {
      const upper = kind === UPPER;
      total += page.letterBits[index]! + (upper ? CASE_BITS[prev].upper : CASE_BITS[prev].lower);
      if (afterLatin) total += AFTER_LATIN_BITS;
      letters++;
      vowels += page.vowel[index]!;
      prev = upper ? 'upper' : 'lower';
    } else {
      total += kind === PUNCT ? PUNCTUATION_BITS : SYMBOL_BITS;
      prev = 'start';
    }
    afterLatin = false;
  }
  return {
    charset: page.charset,
    bits: high > 0 ? total / high : -Infinity,
    letters,
    vowelShare: letters > 0 ? vowels / letters : 0,
  };
}
