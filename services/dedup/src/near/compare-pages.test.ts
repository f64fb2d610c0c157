import { describe, expect, it } from 'vitest';
import { analyzePage, type PageContent } from '../analyze-page.js';
import { storyText, vocabularyText } from '../template/test-pages.js';
import { comparePages } from './compare-pages.js';

const limits = { body: 3, pairs: 18, sameHeadline: 6, sameHeadlinePairs: 12, minTokens: 12, resemblance: 0.5 };
const article = Array.from({ length: 30 }, (_, i) => `${storyText(500 + i)}.`).join(' ');
const page = (title: string, text: string, html?: string): PageContent => ({
  title,
  text,
  lang: 'en',
  contentType: html === undefined ? 'text/plain' : 'text/html',
  charset: 'utf-8',
  body: Buffer.from(html ?? text),
  bodyEncoding: 'identity',
});
/** A page of one site whose extractor kept `article` of it, with `extra` more paragraphs around it. */
const htmlPage = (extra: number) =>
  page(
    'Index',
    article,
    `<html><body><p>${article}</p>${Array.from({ length: extra }, (_, i) => `<p>${storyText(i)}</p>`).join('')}</body></html>`,
  );
const compare = (a: PageContent, b: PageContent, hosts: [string, string] = ['a.test', 'b.test']) =>
  comparePages(
    { host: hosts[0], analysis: analyzePage(a, null, 'md5') },
    { host: hosts[1], analysis: analyzePage(b, null, 'md5') },
    limits,
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
    expect(near.resemblance).toBeGreaterThan(0.9);
    expect(
      compare(
        page('Ferries | A', article),
        page('Ferries | A', Array.from({ length: 30 }, (_, i) => `${storyText(900 + i)}.`).join(' ')),
      ),
    ).toMatchObject({ decision: 'different', reason: expect.stringMatching(/^texts share \d+% |no anchor in common/) });
    expect(compare(page('Ferries', 'two words'), page('Ferries', 'two other words'))).toMatchObject({
      decision: 'too_short',
    });
  });

  it('finds a reprint under its own headline, its text drifted past k bits, by the runs of words it keeps', () => {
    const words = vocabularyText(1, 300);
    const drifted = [...words.slice(0, 270), ...vocabularyText(2, 30)].join(' ');
    const near = compare(
      page('Harbor ferries every twenty minutes | A', words.join(' ')),
      page('Ferry news - B', drifted),
    );
    expect(near).toMatchObject({ decision: 'near_duplicate', reason: expect.stringMatching(/^texts share \d+%/) });
    expect(near.bodyDistance).toBeGreaterThan(3);
    expect(near.titleDistance).toBeGreaterThan(12);
  });

  it('asks the same page of one site for its title, and for page sizes a copy can have', () => {
    const result = compare(
      page('Harbor ferries every hour', article),
      page('Council budget vote delayed', `Reprinted.\n${article}`),
      ['a.test', 'a.test'],
    );
    expect(result).toMatchObject({
      decision: 'different',
      reason: expect.stringMatching(/^same site, headlines \d+ bits apart/),
    });
    // The same main text and title on pages of one site whose whole text is five times apart (an index
    // of every letter whose extraction kept one letter's table); on two sites, templates differ that much.
    const sameSite: [string, string] = ['a.test', 'a.test'];
    expect(compare(htmlPage(10), htmlPage(200), sameSite)).toMatchObject({
      decision: 'different',
      reason: expect.stringMatching(/more than 3 times apart/),
    });
    expect(compare(htmlPage(10), htmlPage(20), sameSite)).toMatchObject({ decision: 'exact_duplicate' });
    expect(compare(htmlPage(10), htmlPage(200))).toMatchObject({ decision: 'exact_duplicate' });
  });
});
