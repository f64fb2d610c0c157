import { describe, expect, it } from 'vitest';
import { titlePartKey } from '../fingerprint/text-fingerprint.js';
import { learnTemplate, sampleOf } from './learn-template.js';
import { blocksOf, newsPage, storyText } from './test-pages.js';
import { decodeTemplate, encodeTemplate, isTemplateBlock, mergeTemplates, unknownShare } from './site-template.js';

const learned = (pages: string[]) =>
  learnTemplate(
    pages.map((html) => sampleOf(blocksOf(html))),
    1000,
  );

describe('learnTemplate', () => {
  it('marks navigation, footer, clocks, counters, rotating ads and boilerplate lines as noise, stories not', () => {
    const template = learned(Array.from({ length: 10 }, (_, i) => newsPage(i + 1)));
    const blocks = blocksOf(newsPage(42));
    const noise = blocks.filter((block) => isTemplateBlock(block, template)).map((block) => block.text);
    expect(noise).toEqual([
      'Home City',
      'Updated 10:52 · 1302 reads',
      'Buy coffee at the harbor.',
      'Share this story with friends.',
      '© The Ledger',
    ]);
    expect(blocks.filter((block) => !isTemplateBlock(block, template)).map((block) => block.text)).toEqual([
      storyText(42, 'title'),
      storyText(42),
      storyText(42, 'second paragraph'),
    ]);
    expect(template.learnedAt).toBe(1000);
    expect(template.pages).toBe(10);
  });

  it('does not take a story served under several URLs for template', () => {
    const same = 'The same story, word for word, behind a print link and a tracking link.';
    const template = learned([
      ...Array.from({ length: 7 }, (_, i) => newsPage(i + 1)),
      newsPage(20, same),
      newsPage(21, same),
      newsPage(22, same),
    ]);
    expect(
      blocksOf(newsPage(20, same)).filter((block) => block.text === same && isTemplateBlock(block, template)),
    ).toEqual([]);
  });

  it("learns the title parts most pages share: the site's name", () => {
    const template = learnTemplate(
      Array.from({ length: 10 }, (_, i) =>
        sampleOf(blocksOf(newsPage(i + 1)), `${storyText(i, 'title')} | The Ledger`),
      ),
      0,
    );
    expect([...template.titleParts]).toEqual([titlePartKey('The Ledger')]);
  });

  it('has one version for one template, whoever learns it, and survives storage', () => {
    const pages = Array.from({ length: 10 }, (_, i) => newsPage(i + 1));
    const [a, b] = [learned(pages), learned(pages.slice().reverse())];
    expect(a.version).toBe(b.version);
    expect(decodeTemplate(encodeTemplate(a))).toEqual(a);
    expect(decodeTemplate('{"v":9}')).toBeNull();
  });

  it('says how much of a page it does not know, and merges with a template learned from such pages', () => {
    const template = learned(Array.from({ length: 10 }, (_, i) => newsPage(i + 1)));
    const gallery = (n: number) =>
      `<html><body><nav><a href="/">Home</a> <a href="/city">City</a></nav><section class="gallery"><h2>Gallery ${n}</h2><figure><figcaption>Photo ${n} of the harbor at dawn.</figcaption></figure><p class="credit">Photos: staff</p></section></body></html>`;
    expect(unknownShare(blocksOf(gallery(1)), template)).toBeGreaterThan(0.5);
    const merged = mergeTemplates(template, learned(Array.from({ length: 10 }, (_, i) => gallery(i))));
    expect(unknownShare(blocksOf(gallery(99)), merged)).toBe(0);
    expect(
      isTemplateBlock(
        blocksOf(gallery(99)).find((block) => block.text === 'Photos: staff')!,
        merged,
      ),
    ).toBe(true);
    expect(merged.learnedAt).toBe(template.learnedAt);
  });
});
