import { describe, expect, it } from 'vitest';
import { pageCounts, scorePages, shingles, tokenize } from './shingle-score.js';

describe('benchmark scoring', () => {
  it('tokenizes Unicode words, numbers and underscores, dropping punctuation', () => {
    expect(tokenize('Ça coûte 3,50 € — snake_case! 東京')).toEqual(['Ça', 'coûte', '3', '50', 'snake_case', '東京']);
  });

  it('counts repeated 4-shingles, and keeps a short text as one shingle', () => {
    const counts = shingles('a b c d a b c d');
    expect(counts.get('a\u0001b\u0001c\u0001d')).toBe(2);
    expect([...counts.values()].reduce((a, b) => a + b)).toBe(5);
    expect([...shingles('just two').keys()]).toEqual(['just\u0001two']);
    expect(shingles('').size).toBe(0);
  });

  it('normalizes a page to TP+FP+FN = 1', () => {
    // truth shingles: [a b c d], [b c d e]; prediction: [a b c d], [b c d x]
    expect(pageCounts('a b c d e', 'a b c d x')).toEqual({ tp: 1 / 3, fp: 1 / 3, fn: 1 / 3 });
    expect(pageCounts('a b c d', 'a b c d')).toEqual({ tp: 1, fp: 0, fn: 0 });
  });

  it('averages precision and recall over pages, leaving empty predictions out of precision', () => {
    const perfect = pageCounts('one two three four five', 'one two three four five');
    const empty = pageCounts('one two three four five', '');
    const score = scorePages([perfect, empty]);
    expect(score.precision).toBe(1);
    expect(score.recall).toBe(0.5);
    expect(score.f1).toBeCloseTo(2 / 3, 10);
  });
});
