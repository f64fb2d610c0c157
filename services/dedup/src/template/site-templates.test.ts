import { MemoryFingerprintStore } from '@crawler/embedded';
import { describe, expect, it } from 'vitest';
import { isTemplateBlock } from './site-template.js';
import { SAMPLE_NAMESPACE, SiteTemplates, TEMPLATE_NAMESPACE } from './site-templates.js';
import { blocksOf, newsPage, storyText } from './test-pages.js';

const gallery = (n: number) =>
  `<html><body><nav><a href="/">Home</a> <a href="/city">City</a></nav><section class="gallery"><h2>${storyText(n, 'gallery')}</h2><p class="credit">Photos: staff</p><p class="caption">${storyText(n, 'caption')}</p><p class="views">${n * 3} views</p></section></body></html>`;

function setup(now: () => number = () => 1000) {
  const store = new MemoryFingerprintStore();
  const templates = new SiteTemplates({ store, samplePages: 5, relearnAfterMs: 10_000, ttlMs: 60_000, now });
  const visit = async (html: string) =>
    templates.observe('site.test', blocksOf(html), null, await templates.get('site.test'));
  return { store, templates, visit };
}

describe('SiteTemplates', () => {
  it('samples distinct pages until it has enough, learns, stores the template and drops the samples', async () => {
    const { store, templates, visit } = setup();
    expect(await visit(newsPage(1))).toBe('sampled');
    expect(await visit(newsPage(1))).toBe('sampled'); // the same page again adds no sample
    for (let n = 2; n <= 4; n++) expect(await visit(newsPage(n))).toBe('sampled');
    expect(await templates.get('site.test')).toBeNull();
    expect(await visit(newsPage(5))).toBe('learned');
    expect(await store.members(SAMPLE_NAMESPACE, ['site.test'])).toEqual([[]]);
    expect(await store.get(TEMPLATE_NAMESPACE, ['site.test'])).not.toEqual([null]);
    const learned = await new SiteTemplates({ store, samplePages: 5, relearnAfterMs: 10_000, ttlMs: 60_000 }).get(
      'site.test',
    );
    expect(learned?.version).toBe((await templates.get('site.test'))?.version);
    expect(await visit(newsPage(6))).toBeNull();
  });

  it('learns once when the pages that complete the samples are handled at once', async () => {
    const { templates } = setup();
    for (let n = 1; n <= 4; n++) await templates.observe('site.test', blocksOf(newsPage(n)), null, null);
    const results = await Promise.all(
      [5, 6, 7, 8].map((n) => templates.observe('site.test', blocksOf(newsPage(n)), null, null)),
    );
    expect(results.filter((result) => result === 'learned')).toHaveLength(1);
    expect(await templates.get('site.test')).not.toBeNull();
  });

  it('adds what it learns from pages the template does not fit, such as a gallery section', async () => {
    const { templates, visit } = setup();
    for (let n = 1; n <= 5; n++) await visit(newsPage(n));
    const before = (await templates.get('site.test'))!;
    const results = [];
    for (let n = 1; n <= 5; n++) results.push(await visit(gallery(n)));
    expect(results).toEqual(['sampled', 'sampled', 'sampled', 'sampled', 'learned']);
    const after = (await templates.get('site.test'))!;
    expect(after.version).not.toBe(before.version);
    expect(
      blocksOf(gallery(9))
        .filter((block) => isTemplateBlock(block, after))
        .map((block) => block.text),
    ).toEqual(['Home City', 'Photos: staff', '27 views']);
    expect(blocksOf(newsPage(9)).filter((block) => isTemplateBlock(block, after)).length).toBe(
      blocksOf(newsPage(9)).filter((block) => isTemplateBlock(block, before)).length,
    );
    expect(await visit(gallery(10))).toBeNull();
  });

  it('learns an old template again from fresh pages, and replaces it', async () => {
    let clock = 1000;
    const { templates, visit } = setup(() => clock);
    for (let n = 1; n <= 5; n++) await visit(newsPage(n));
    clock += 20_000;
    for (let n = 1; n <= 4; n++) expect(await visit(gallery(n))).toBe('sampled');
    expect(await visit(gallery(5))).toBe('learned');
    const replaced = (await templates.get('site.test'))!;
    expect(replaced.learnedAt).toBe(clock);
    expect(
      blocksOf(newsPage(9))
        .filter((block) => isTemplateBlock(block, replaced))
        .map((block) => block.text),
    ).toEqual(['Home City']);
  });
});
