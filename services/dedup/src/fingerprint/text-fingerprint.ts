import { countFeatures, simhash } from './simhash.js';
import { tokenize } from './tokenize.js';

/**
 * What near-duplicate detection compares, for one main text and title:
 * - `body`: SimHash of the content words, each weighted by its count squared. The words a text
 *   repeats carry it; a corrected sentence, a credit line or a caption the extractor kept are words
 *   used once, and squaring keeps them from flipping bits (measured on the article benchmark:
 *   recall on reprints 0.72 with plain counts, 0.84 squared, at distance 3).
 * - `pairs`: SimHash of consecutive word pairs. Two articles on one topic repeat the same words, so
 *   their `body` hashes can agree; their word sequences do not. A match needs both.
 * - `title`: SimHash of the headline (the longest part of the title between separators such as
 *   " | " or " - ", so a site's name does not count).
 */
export interface TextFingerprint {
  body: bigint;
  pairs: bigint;
  title: bigint | null;
  /** Content words in the text: short texts are not compared for near duplicates. */
  tokens: number;
}

const TITLE_SEPARATORS = / [|\-–—·»] | :: /;

export function fingerprintText(title: string | null, text: string, lang: string | null): TextFingerprint {
  const tokens = tokenize(text, lang);
  const counts = countFeatures(tokens);
  for (const [token, count] of counts) counts.set(token, count * count);
  const pairs = new Map<string, number>();
  for (let i = 1; i < tokens.length; i++) {
    const pair = `${tokens[i - 1]} ${tokens[i]}`;
    pairs.set(pair, (pairs.get(pair) ?? 0) + 1);
  }
  const headlineTokens = title ? tokenize(headline(title), lang) : [];
  return {
    body: simhash(counts),
    pairs: simhash(pairs),
    title: headlineTokens.length > 0 ? simhash(countFeatures(headlineTokens)) : null,
    tokens: tokens.length,
  };
}

/** The longest part of a title split at the separators sites put between headline and site name. */
export function headline(title: string): string {
  let best = '';
  for (const part of title.split(TITLE_SEPARATORS)) if (part.trim().length > best.length) best = part.trim();
  return best;
}
