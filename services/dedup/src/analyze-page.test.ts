import { describe, expect, it } from 'vitest';
import { analyzePage, type PageContent } from './analyze-page.js';
import { learnTemplate, sampleOf } from './template/learn-template.js';
import { blocksOf, newsPage, storyText } from './template/test-pages.js';
import { gzipSync } from 'node:zlib';

const content = (body: string | Buffer, overrides: Partial<PageContent> = {}): PageContent => ({
  title: 'T',
  text: '',
  lang: 'en',
  contentType: 'text/html',
  charset: 'utf-8',
  body: Buffer.from(body),
  bodyEncoding: 'identity',
  ...overrides,
});

describe('analyzePage', () => {
  it('digests the main text without the template, and the raw body as sent', () => {
    const html = newsPage(5);
    const template = learnTemplate(
      Array.from({ length: 10 }, (_, i) => sampleOf(blocksOf(newsPage(i + 10)))),
      0,
    );
    const main = [
      storyText(5, 'title'),
      'Updated 10:15 · 155 reads',
      storyText(5),
      'Share this story with friends.',
    ].join('\n');
    const plain = analyzePage(content(html, { text: main }), null, 'md5');
    const denoised = analyzePage(content(gzipSync(html), { text: main, bodyEncoding: 'gzip' }), template, 'md5');
    expect(denoised.text).toBe([storyText(5, 'title'), storyText(5)].join('\n'));
    expect(denoised.rawDigest).toBe(plain.rawDigest);
    expect(denoised.digest).not.toBe(plain.digest);
    expect(denoised.fingerprint?.tokens).toBeGreaterThan(10);
    expect(denoised.blocks.length).toBeGreaterThan(5);
  });

  it('reads media by their bytes only, and plain text without blocks', () => {
    expect(
      analyzePage(content(Buffer.from([1, 2, 3]), { contentType: 'application/pdf' }), null, 'sha256'),
    ).toMatchObject({ media: true, fingerprint: null, blocks: [], digest: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const text = analyzePage(
      content('just text, long enough to be digested by its words alone', {
        contentType: 'text/plain',
        text: 'just text, long enough to be digested by its words alone',
      }),
      null,
      'md5',
    );
    expect(text).toMatchObject({ media: false, blocks: [] });
    expect(text.fingerprint).not.toBeNull();
  });
});
