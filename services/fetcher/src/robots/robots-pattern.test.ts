import { describe, expect, it } from 'vitest';
import { matchesRobotsPattern } from './robots-pattern.js';

/** The obvious (but exponential in the worst case) reference: the pattern as a RegExp. */
function reference(path: string, pattern: string): boolean {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  const source = body.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
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
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const pick = (alphabet: string, length: number) => Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
    for (let i = 0; i < 5000; i++) {
      const path = `/${pick('ab/', Math.floor(random() * 8))}`;
      const pattern = `/${pick('ab*/', Math.floor(random() * 6))}${random() < 0.3 ? '$' : ''}`;
      expect(matchesRobotsPattern(path, pattern), `${path} ~ ${pattern}`).toBe(reference(path, pattern));
    }
  });
});
