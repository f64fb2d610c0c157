// Pages and texts for the dedup tests: one site's template around stories that share no sentence,
// and texts of a large vocabulary for near duplicates.

import { murmur32, type PageBlock } from '@crawler/core';
import { readBlocks } from '@crawler/core/html';

const ADS = ['Buy coffee at the harbor.', 'Ferry passes, half price.', 'Learn to sail this summer.'];
const WORDS = [
  'harbor',
  'council',
  'ferry',
  'bridge',
  'market',
  'storm',
  'museum',
  'school',
  'festival',
  'budget',
  'river',
  'station',
];

/** Words that differ from page to page, digits aside (template learning masks digits). */
export function storyText(n: number, salt = ''): string {
  let state = n * 7919 + salt.length * 104_729 + 1;
  return Array.from({ length: 12 }, () => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    return WORDS[(state >>> 16) % WORDS.length];
  }).join(' ');
}

/** A news page: chrome, a dateline with a clock and counter, an ad from a small pool, and its own story. */
export function newsPage(n: number, story = storyText(n)): string {
  return `<html><body><nav><a href="/">Home</a> <a href="/city">City</a></nav>
<div class="story"><h1>${storyText(n, 'title')}</h1><p class="dateline">Updated 10:${10 + n} · ${n * 31} reads</p>
<p>${story}</p><div class="promo"><p>${ADS[n % ADS.length]}</p></div><p>${storyText(n, 'second paragraph')}</p>
<p>Share this story with friends.</p></div><footer><p>© The Ledger</p></footer></body></html>`;
}

/** Words of a large vocabulary, as real texts use them: two texts of different seeds share few. */
export function vocabularyText(seed: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `w${murmur32(`${seed}:${i}`, 7) % 5000}`);
}

/** A page's blocks, as link extraction's pass finds them. */
export function blocksOf(html: string): PageBlock[] {
  return readBlocks(html).blocks;
}
