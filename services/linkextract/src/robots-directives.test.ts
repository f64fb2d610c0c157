import { describe, expect, it } from 'vitest';
import { parseRobotsDirectives } from './robots-directives.js';

describe('robots directives', () => {
  it.each([
    [['noindex'], { noindex: true, nofollow: false }],
    [['NoFollow'], { noindex: false, nofollow: true }],
    [['none'], { noindex: true, nofollow: true }],
    [
      ['index, follow, max-snippet:20, unavailable_after: 25 Jun 2010 15:00:00 PST'],
      { noindex: false, nofollow: false },
    ],
    [['googlebot: noindex, nofollow'], { noindex: false, nofollow: false }],
    [['otherbot: noindex', 'nofollow'], { noindex: false, nofollow: true }],
    [['*: noindex'], { noindex: true, nofollow: false }],
    [[''], { noindex: false, nofollow: false }],
  ])('%j -> %j', (values, expected) => {
    expect(parseRobotsDirectives(values)).toEqual(expected);
  });

  it('applies directives scoped to the crawler’s own product token', () => {
    expect(parseRobotsDirectives(['googlebot: nofollow, mybot: noindex'], 'MyBot')).toEqual({
      noindex: true,
      nofollow: false,
    });
  });
});
