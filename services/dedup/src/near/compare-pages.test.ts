import { describe, expect, it } from 'vitest';
import { analyzePage, type PageContent } from '../analyze-page.js';
import { storyText, vocabularyText } from '../template/test-pages.js';
import { comparePages } from './compare-pages.js';

const limits = { body: 3, title: 12, pairs: 18, sameHeadline: 6, sameHeadlinePairs: 12 };
const article = Array.from({ length: 30 }, (_, i) => `${storyText(500 + i)}.`).join(' ');
const page = (title: string, text: string): PageContent => ({
  title,
  text,
  lang: 'en',
  contentType: 'text/plain',
  charset: 'utf-8',
  body: Buffer.from(text),
  bodyEncoding: 'identity',
});
const compare = (a: PageContent, b: PageContent, hosts: [string, string] = ['a.test', 'b.test']) =>
  comparePages(
    { host: hosts[0], analysis: analyzePage(a, null, 'md5') },
    { host: hosts[1], analysis: analyzePage(b, null, 'md5') },
    limits,
    20,
  );

describe('comparePages', () => {
  it('tells exact copies, near copies and different pages apart, and says why', () => {
    expect(compare(page('Ferries | A', article), page('Ferries | A', article))).toMatchObject({
      decision: 'exact_duplicate',
      bodyDistance: 0,
    });
    const near = compare(
      page('Harbor ferries every hour | A', article),
      page('Harbor ferries every hour | B', `Reprinted.\n${article}`),
    );
    expect(near).toMatchObject({ decision: 'near_duplicate', titleDistance: 0 });
    expect(near.bodyDistance).toBeLessThanOrEqual(3);
    expect(
      compare(
        page('Ferries | A', article),
        page('Ferries | A', Array.from({ length: 30 }, (_, i) => `${storyText(900 + i)}.`).join(' ')),
      ),
    ).toMatchObject({ decision: 'different', reason: expect.stringMatching(/^main texts \d+ bits apart/) });
    expect(compare(page('Ferries', 'two words'), page('Ferries', 'two other words'))).toMatchObject({
      decision: 'too_short',
    });
  });

  it('lets the same headline of three words or more reach further into the main text', () => {
    const words = vocabularyText(1, 300);
    const [original, drifted] = [words.join(' '), [...words.slice(0, 290), ...vocabularyText(2, 10)].join(' ')];
    const near = compare(
      page('Harbor ferries every twenty minutes | A', original),
      page('Harbor ferries every twenty minutes - B', drifted),
    );
    expect(near).toMatchObject({
      decision: 'near_duplicate',
      titleDistance: 0,
      reason: expect.stringMatching(/with the same headline/),
    });
    expect(near.bodyDistance).toBeGreaterThan(3);
    expect(compare(page('Ferries | A', original), page('Ferries | B', drifted))).toMatchObject({
      decision: 'different',
      reason: expect.stringMatching(/at most 3\)$/),
    });
  });

  it('asks a headline within k of a match on the same site', () => {
    const result = compare(
      page('Harbor ferries every hour', article),
      page('Council budget vote delayed', `Reprinted.\n${article}`),
      ['a.test', 'a.test'],
    );
    expect(result.decision).toBe('different');
    expect(result.reason).toMatch(/headlines \d+ bits apart/);
  });
});
