import { randomText, seededRandom } from '@crawler/core/testing';
import { describe, expect, it } from 'vitest';
import { forEachAsciiWord, tokenize, WORD } from './tokenize.js';

describe('tokenize', () => {
  it('keeps content words, lower-cased, without stop words or single letters', () => {
    expect(tokenize('The Mayor of Harbor City said a new bridge will open in 2027.')).toEqual([
      'mayor',
      'harbor',
      'city',
      'bridge',
      'open',
      '2027',
    ]);
  });

  it('segments Chinese into words and drops its function words', () => {
    const tokens = tokenize('我们的城市今天开放了新的图书馆。');
    expect(tokens).toEqual(expect.arrayContaining(['城市', '今天', '开放']));
    expect(tokens.join('')).toContain('图书');
    expect(tokens).not.toContain('的');
    expect(tokens).not.toContain('我们');
  });

  it('segments Japanese and drops particles', () => {
    const tokens = tokenize('東京の新しい図書館は月曜日に開館します', 'ja');
    expect(tokens).toContain('図書館');
    expect(tokens).not.toContain('の');
    expect(tokens).not.toContain('は');
  });

  it('folds full-width forms, so a reprint in other glyphs gives the same tokens', () => {
    expect(tokenize('ＡＢＣ　２０２６ 新闻')).toEqual(tokenize('abc 2026 新闻'));
  });

  it('reads ASCII words exactly as the Unicode word pattern does', () => {
    const alphabet = "ab z09' -.\n";
    const random = seededRandom(7);
    for (let n = 0; n < 2000; n++) {
      const text = randomText(random, alphabet, 1 + Math.floor(random() * 30));
      const words: string[] = [];
      forEachAsciiWord(text, (word) => words.push(word));
      expect(words, JSON.stringify(text)).toEqual(Array.from(text.matchAll(WORD), (match) => match[0]));
    }
    expect(tokenize("It's 10 o'clock, rock'n'roll's 'quoted' x'")).toEqual([
      "it's",
      '10',
      "o'clock",
      "rock'n'roll's",
      'quoted',
    ]);
  });
});
