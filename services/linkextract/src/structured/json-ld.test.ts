import { describe, expect, it } from 'vitest';
import { readJsonLd } from './json-ld.js';

describe('readJsonLd', () => {
  it('flattens top-level entities and @graph members, naming nested entities', () => {
    const block = JSON.stringify({
      '@context': 'https://schema.org',
      '@graph': [
        { '@type': 'WebSite', '@id': 'https://a.test/#site', url: 'https://a.test/' },
        {
          '@type': 'NewsArticle',
          headline: 'H',
          datePublished: '2024-01-02',
          keywords: ['x', 'y'],
          author: [
            { '@type': 'Person', name: 'Ann' },
            { '@type': 'Person', name: 'Bob' },
          ],
          wordCount: 420,
        },
      ],
    });
    const result = readJsonLd([block]);
    expect(Object.fromEntries(result.fields)).toEqual({
      'jsonld:@type': ['WebSite', 'NewsArticle'],
      'jsonld:@id': ['https://a.test/#site'],
      'jsonld:url': ['https://a.test/'],
      'jsonld:headline': ['H'],
      'jsonld:datePublished': ['2024-01-02'],
      'jsonld:keywords': ['x', 'y'],
      'jsonld:author': ['Ann', 'Bob'],
      'jsonld:wordCount': ['420'],
    });
    expect(result.datePublished).toBe('2024-01-02');
  });

  it('links URL-valued properties at any depth, not media', () => {
    const block = JSON.stringify({
      '@type': 'BreadcrumbList',
      itemListElement: [
        { '@type': 'ListItem', item: 'https://a.test/news' },
        { '@type': 'ListItem', item: { '@id': 'https://a.test/news/tech' } },
      ],
      image: { '@type': 'ImageObject', url: 'https://a.test/pic.jpg' },
      sameAs: ['https://social.test/a', 'not a url'],
    });
    expect(
      readJsonLd([block])
        .links.map((link) => link.href)
        .sort(),
    ).toEqual(['https://a.test/news', 'https://a.test/news/tech', 'https://social.test/a']);
  });

  it('counts blocks that are not JSON and reads the rest', () => {
    const result = readJsonLd(['{oops', '<!-- {"@type":"Thing","name":"N"} -->']);
    expect(result.invalidBlocks).toBe(1);
    expect(result.fields.get('jsonld:name')).toEqual(['N']);
  });
});
