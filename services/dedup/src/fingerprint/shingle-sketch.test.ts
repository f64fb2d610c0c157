import { describe, expect, it } from 'vitest';
import { vocabularyText } from '../template/test-pages.js';
import { featureHash } from './simhash.js';
import {
  decodeSketch,
  encodeSketch,
  resemblance,
  ShingleSketcher,
  SKETCH_SIZE,
  type ShingleSketch,
} from './shingle-sketch.js';

const sketchOf = (words: readonly string[]): ShingleSketch => {
  const sketcher = new ShingleSketcher();
  for (const word of words) sketcher.add(featureHash(word));
  return sketcher.sketch();
};
const shingles = (words: readonly string[]) => new Set(words.slice(3).map((_, i) => words.slice(i, i + 4).join(' ')));
const jaccard = (a: Set<string>, b: Set<string>) => {
  let shared = 0;
  for (const item of a) if (b.has(item)) shared++;
  return shared / (a.size + b.size - shared);
};

describe('shingle sketches', () => {
  it('keep the smallest distinct shingle hashes, ascending, and are exact for short texts', () => {
    const words = vocabularyText(1, 20);
    const sketch = sketchOf(words);
    expect(sketch).toHaveLength(17);
    expect([...sketch]).toEqual([...sketch].sort((a, b) => a - b));
    // A run repeated is one shingle: "a b c d a b c d a" has four distinct ones.
    expect(sketchOf(['a', 'b', 'c', 'd', 'a', 'b', 'c', 'd', 'a'])).toHaveLength(4);
    expect(sketchOf(vocabularyText(2, 500))).toHaveLength(SKETCH_SIZE);
    const other = [...words.slice(0, 14), ...vocabularyText(3, 6)];
    expect(resemblance(sketch, sketchOf(other))).toBeCloseTo(jaccard(shingles(words), shingles(other)), 10);
  });

  it('estimate the resemblance of long texts within a few hundredths on average', () => {
    const errors: number[] = [];
    for (let seed = 10; seed < 60; seed++) {
      const words = vocabularyText(seed, 600);
      const kept = 200 + ((seed * 37) % 400);
      const other = [...words.slice(0, kept), ...vocabularyText(seed + 1000, 600 - kept)];
      errors.push(resemblance(sketchOf(words), sketchOf(other)) - jaccard(shingles(words), shingles(other)));
    }
    const mean = errors.reduce((sum, error) => sum + error, 0) / errors.length;
    const spread = Math.sqrt(errors.reduce((sum, error) => sum + error * error, 0) / errors.length);
    expect(Math.abs(mean)).toBeLessThan(0.03);
    expect(spread).toBeLessThan(0.12);
    expect(resemblance(sketchOf(vocabularyText(1, 600)), sketchOf(vocabularyText(2, 600)))).toBe(0);
  });

  it('survive their stored form', () => {
    const sketch = sketchOf(vocabularyText(5, 300));
    expect(decodeSketch(encodeSketch(sketch))).toEqual(sketch);
    expect(decodeSketch('')).toBeNull();
    expect(decodeSketch('12345')).toBeNull();
  });
});
