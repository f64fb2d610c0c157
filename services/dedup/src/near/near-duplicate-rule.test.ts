import { describe, expect, it } from 'vitest';
import { fingerprintText } from '../fingerprint/text-fingerprint.js';
import { vocabularyText } from '../template/test-pages.js';
import { judgeNearDuplicate, screenNearDuplicate, sizesAllowCopy, type NearSubject } from './near-duplicate-rule.js';
import { siteTag, subjectOf } from './near-subject.js';

const limits = { body: 3, pairs: 18, sameHeadline: 6, sameHeadlinePairs: 12, minTokens: 12, resemblance: 0.5 };
const words = vocabularyText(1, 400);
const subject = (host: string, title: string | null, text: string[], pageChars = 10_000): NearSubject => {
  const fingerprint = fingerprintText(title, text.join(' '), 'en');
  return subjectOf(host, {
    media: false,
    rawDigest: '',
    digest: '',
    text: text.join(' '),
    blocks: [],
    pageChars,
    fingerprint,
  })!;
};

describe('the near-duplicate rule', () => {
  it('needs enough content words, and lengths that allow the resemblance asked for', () => {
    expect(
      judgeNearDuplicate(
        subject('a.test', null, words.slice(0, 8)),
        subject('b.test', null, words.slice(0, 8)),
        limits,
      ),
    ).toMatchObject({
      decision: 'too_short',
    });
    // Release notes of two versions: SimHashes of two long texts of one vocabulary can agree; their lengths cannot.
    const long = subject('a.test', 'What’s New In Python 3.7', words);
    const short = subject('a.test', 'What’s New In Python 3.9', words.slice(0, 180));
    expect(judgeNearDuplicate(short, long, limits)).toMatchObject({
      decision: 'different',
      reason: expect.stringMatching(/too far apart in length/),
    });
  });

  it("on one site, takes equal headlines under different titles for the site's name, not the page's", () => {
    const index = subject('docs.test', 'Index — Python 3.11.2 documentation', words);
    const search = subject('docs.test', 'Search — Python 3.11.2 documentation', [
      ...words.slice(0, 390),
      ...vocabularyText(9, 10),
    ]);
    expect(index.title).toBe(search.title);
    expect(judgeNearDuplicate(search, index, limits)).toMatchObject({
      decision: 'different',
      reason: expect.stringMatching(/titles differ only where the headline leaves out/),
    });
    // The same titles on one site, or the same suffix on two: the texts decide.
    expect(judgeNearDuplicate({ ...search, titleKey: index.titleKey }, index, limits).decision).toBe('near_duplicate');
    expect(judgeNearDuplicate({ ...search, site: siteTag('mirror.test') }, index, limits).decision).toBe(
      'near_duplicate',
    );
  });

  it('does not widen the body distance for a headline guessed from a title with more parts', () => {
    expect(subject('a.test', 'Index — Python 3.11.2 documentation', words).specific).toBe(false);
    expect(subject('a.test', 'Harbor ferries every twenty minutes | News', words).specific).toBe(true);
  });

  it('reaches pages the index finds: bodies within k, the same specific headline within 6, or an anchor in common', () => {
    const original = subject('a.test', 'Harbor ferries every twenty minutes | News', words);
    const far = { ...subject('b.test', 'Ferry news | Wire', vocabularyText(2, 400)) };
    expect(screenNearDuplicate(far, original, limits)).toMatchObject({
      reason: expect.stringMatching(/no anchor in common/),
    });
    expect(screenNearDuplicate({ ...far, anchors: [original.anchors[1]!] }, original, limits)).toBeNull();
    expect(
      screenNearDuplicate({ ...far, body: original.body ^ 0b111n, pairs: original.pairs }, original, limits),
    ).toBeNull();
    const headlined = { ...far, title: original.title, specific: true, pairs: original.pairs };
    expect(screenNearDuplicate({ ...headlined, body: original.body ^ 0b111111n }, original, limits)).toBeNull();
    expect(screenNearDuplicate({ ...headlined, body: original.body ^ 0b1111111n }, original, limits)).not.toBeNull();
  });

  it('verifies a match by what the texts share, beyond the 64 bits of their SimHashes', () => {
    const original = subject('a.test', 'Release notes | Docs', words);
    const other = subject('b.test', 'Release notes | Docs', vocabularyText(3, 400));
    // Their SimHashes made to agree: only the sketches can tell.
    const forged = { ...other, body: original.body, pairs: original.pairs };
    expect(judgeNearDuplicate(forged, original, limits)).toMatchObject({
      decision: 'different',
      reason: expect.stringMatching(/^texts share \d+% of their runs of four words \(at least 50%\)/),
    });
    const edited = subject('b.test', 'Release notes | Wire', [...words.slice(0, 360), ...vocabularyText(4, 40)]);
    expect(judgeNearDuplicate(edited, original, limits)).toMatchObject({ decision: 'near_duplicate' });
    expect(judgeNearDuplicate({ ...edited, sketch: null }, original, limits)).toMatchObject({
      decision: 'different',
      reason: expect.stringMatching(/no sketch/),
    });
  });
});

describe('sizesAllowCopy', () => {
  it('lets pages of one site be copies only within three times the visible text, pages of two sites at any size', () => {
    const a = siteTag('a.test');
    expect(sizesAllowCopy({ site: a, pageChars: 77_251 }, { site: a, pageChars: 424_967 })).toBe(false);
    expect(sizesAllowCopy({ site: a, pageChars: 77_251 }, { site: a, pageChars: 80_000 })).toBe(true);
    expect(sizesAllowCopy({ site: a, pageChars: 77_251 }, { site: siteTag('b.test'), pageChars: 424_967 })).toBe(true);
    expect(sizesAllowCopy({ site: a, pageChars: null }, { site: a, pageChars: 424_967 })).toBe(true);
  });
});
