import { randomText, seededRandom } from '@crawler/core/testing';
import { describe, expect, it } from 'vitest';
import { matchesRobotsPattern } from './robots-pattern.js';

/** The obvious (but exponential in the worst case) reference: the pattern as a RegExp. */
function reference(path: string, pattern: string): boolean {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  const source = body
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}${anchored ? '$' : ''}`).test(path);
}

describe('matchesRobotsPattern', () => {
  it.each([
    ['/fish', '/fish', true],
    ['/fish.html', '/fish', true],
    ['/Fish', '/fish', false],
    ['/fish', '/fish$', true],
    ['/fish/', '/fish$', false],
    ['/a/b.php', '/*.php', true],
    ['/a/b.php?x', '/*.php$', false],
    ['/', '*', true],
    ['/x$y', '/x$y', true],
  ])('%s against %s is %s', (path, pattern, expected) => {
    expect(matchesRobotsPattern(path, pattern)).toBe(expected);
  });

  it('agrees with a RegExp reference on random short paths and patterns', () => {
    const random = seededRandom(7);
    const pick = (alphabet: string, length: number) => randomText(random, alphabet, length);
    for (let i = 0; i < 5000; i++) {
      const path = `/${pick('ab/', Math.floor(random() * 8))}`;
      const pattern = `/${pick('ab*/', Math.floor(random() * 6))}${random() < 0.3 ? '$' : ''}`;
      expect(matchesRobotsPattern(path, pattern), `${path} ~ ${pattern}`).toBe(reference(path, pattern));
    }
  });
});
