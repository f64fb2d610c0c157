import { describe, expect, it } from 'vitest';
import { hammingDistance } from './simhash.js';
import { fingerprintText, headline, titlePartKey } from './text-fingerprint.js';

const article = [
  'The harbor authority approved a new ferry schedule on Monday after months of complaints from commuters on the island routes.',
  'Under the plan, ferries will leave every twenty minutes during the morning rush, and the last evening crossing moves to midnight.',
  'Commuters who spoke at the hearing said the old schedule forced them to leave work early or wait an hour in the cold terminal.',
  'The authority said the change will cost about two million a year, paid from fares and a grant from the regional transport fund.',
  'Island residents have asked for more frequent ferries since the bridge closed for repairs last spring, doubling ferry traffic.',
  'The new schedule starts in March. The authority will review ridership in the autumn and may add weekend crossings if demand holds.',
].join('\n');

describe('fingerprintText', () => {
  it('keeps a corrected sentence and a credit line within a few bits', () => {
    const base = fingerprintText('Ferries every twenty minutes | Harbor Ledger', article, 'en');
    const corrected = fingerprintText(
      'Ferries every twenty minutes - Coastal Wire',
      `Reprinted with permission.\n${article.replace('two million', 'three million')}`,
      'en',
    );
    expect(hammingDistance(base.body, corrected.body)).toBeLessThanOrEqual(3);
    expect(corrected.title).toBe(base.title);
    expect(base.tokens).toBeGreaterThan(60);
  });

  it('tells apart two articles that share their topic words by their word pairs', () => {
    const other = article
      .split('\n')
      .map((line) => line.split(' ').reverse().join(' '))
      .join('\n');
    const [a, b] = [fingerprintText(null, article, 'en'), fingerprintText(null, other, 'en')];
    expect(a.body).toBe(b.body);
    expect(hammingDistance(a.pairs, b.pairs)).toBeGreaterThan(18);
    expect(a.title).toBeNull();
  });
});

describe('headline', () => {
  it("counts the headline's content words, none for a title that is only the site's name", () => {
    const site = new Set([titlePartKey('Harbor Ledger')]);
    expect(fingerprintText('Ferries every twenty minutes | Harbor Ledger', article, 'en').headlineWords).toBe(4);
    expect(fingerprintText('Ferries every twenty minutes | Harbor Ledger', article, 'en', site).headlineWords).toBe(4);
    expect(fingerprintText('Harbor Ledger', article, 'en', site)).toMatchObject({
      headlineWords: 0,
      title: expect.any(BigInt),
    });
    expect(fingerprintText('Harbor Ledger', article, 'en').headlineWords).toBe(2);
  });

  it("drops the site's name: its learned title parts, or else the last part when three words stay", () => {
    expect(headline('In brief 23 | Harbor Briefs')).toBe('In brief 23');
    expect(headline('Harbor Briefs | In brief 23', new Set([titlePartKey('harbor briefs')]))).toBe('In brief 23');
    expect(headline('Harbor Briefs', new Set([titlePartKey('Harbor Briefs')]))).toBe('Harbor Briefs');
  });

  it('takes the longest part when dropping the last leaves too little', () => {
    expect(headline('Ferries every twenty minutes | Harbor Ledger')).toBe('Ferries every twenty minutes');
    expect(headline('News — Ferries: a new schedule from March')).toBe('Ferries: a new schedule from March');
    expect(headline('Well-known co-op opens')).toBe('Well-known co-op opens');
  });

  it("counts no words in a guessed headline: the longest part may be the site's name", () => {
    const guessed = fingerprintText('Index — Python 3.11.2 documentation', article, 'en');
    expect(headline('Index — Python 3.11.2 documentation')).toBe('Python 3.11.2 documentation');
    expect(guessed.headlineWords).toBe(0);
    const search = fingerprintText('Search — Python 3.11.2 documentation', article, 'en');
    expect(search.title).toBe(guessed.title);
    expect(search.titleKey).not.toBe(guessed.titleKey);
    expect(fingerprintText(' index —  Python 3.11.2 documentation', article, 'en').titleKey).toBe(guessed.titleKey);
  });
});
