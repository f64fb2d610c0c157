import { describe, expect, it } from 'vitest';
import { runHtmlPass } from '@crawler/core/html';
import { createMicrodataCollector } from './microdata-collector.js';

function microdataOf(html: string): Record<string, string[]> {
  const collector = createMicrodataCollector();
  runHtmlPass(html, [collector]);
  return Object.fromEntries(collector.fields);
}

describe('microdata (lite)', () => {
  it('reads top-level item properties from content, href, src, datetime and text', () => {
    const html = `<article itemscope itemtype="https://schema.org/NewsArticle">
      <h1 itemprop="headline">The  <b>headline</b></h1><meta itemprop="inLanguage" content="en">
      <a itemprop="url" href="https://a.test/s">link</a><img itemprop="image" src="/i.jpg"><time itemprop="datePublished" datetime="2024-05-01">May 1</time>
      <div itemprop="articleBody"><p>Long body</p></div>
      <div itemprop="author" itemscope itemtype="https://schema.org/Person"><span itemprop="name">Nested Name</span></div>
    </article>`;
    expect(microdataOf(html)).toEqual({
      'microdata:@type': ['NewsArticle'],
      'microdata:headline': ['The headline'],
      'microdata:inLanguage': ['en'],
      'microdata:url': ['https://a.test/s'],
      'microdata:image': ['/i.jpg'],
      'microdata:datePublished': ['2024-05-01'],
    });
  });

  it('ignores itemprop outside any item', () => {
    expect(microdataOf('<span itemprop="name">orphan</span>')).toEqual({});
  });
});
