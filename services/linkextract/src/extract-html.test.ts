import { describe, expect, it } from 'vitest';
import { extractHtml, type ExtractLimits, type ExtractOptions } from './extract-html.js';

const limits: ExtractLimits = {
  maxLinks: 100,
  maxAnchorChars: 20,
  maxTextChars: 10_000,
  maxElements: 10_000,
  maxNesting: 256,
  maxParseMs: 5000,
  maxMarkdownChars: 20_000,
};
const linksOf = (html: string, options: ExtractOptions = { textLinks: true, feedLinks: false, robotsAgent: null }) =>
  extractHtml(html, limits, options).links.map((link) => [link.source, link.href, link.anchor, link.rel]);

describe('extractHtml', () => {
  it('finds links of every kind with anchors and rel', () => {
    const html = `<html lang="fr"><head><title> My  Page </title><base href="/base/">
      <link rel="canonical" href="/canon"><link rel="next" href="/p2"><link rel="prev" href="/p0"><link rel="stylesheet" href="/s.css">
      <link rel="alternate" hreflang="de" href="/de/"><link rel="alternate" type="application/rss+xml" href="/feed.xml">
      <meta name="description" content="About  things"><meta http-equiv="refresh" content="0; url=/refreshed"></head>
      <body><a href="/a" rel="nofollow">Anchor <b>A</b></a><map><area href="/area" alt="Area"></map><a href="/img"><img src="i.png" alt="Picture alt"></a>
      <frameset><frame src="/frame"></frameset><iframe src="/iframe"></iframe><a name="no-href">x</a></body></html>`;
    const result = extractHtml(html, limits);
    expect(result).toMatchObject({
      title: 'My Page',
      lang: 'fr',
      baseHref: '/base/',
      canonical: '/canon',
      description: 'About things',
    });
    expect(result.links.map((link) => [link.source, link.href, link.anchor, link.rel])).toEqual([
      ['canonical', '/canon', null, 'canonical'],
      ['link', '/p2', null, 'next'],
      ['link', '/p0', null, 'prev'],
      ['link', '/de/', null, 'alternate'],
      ['meta-refresh', '/refreshed', null, null],
      ['a', '/a', 'Anchor A', 'nofollow'],
      ['area', '/area', 'Area', null],
      ['a', '/img', 'Picture alt', null],
      ['frame', '/frame', null, null],
      ['iframe', '/iframe', null, null],
    ]);
  });

  it('keeps feed alternates only when feeds are fetched', () => {
    const html =
      '<link rel="alternate" type="application/rss+xml" href="/feed.xml"><link rel="alternate" type="application/pdf" href="/x.pdf">';
    expect(linksOf(html)).toEqual([]);
    expect(linksOf(html, { textLinks: true, feedLinks: true, robotsAgent: null })).toEqual([
      ['link', '/feed.xml', null, 'alternate'],
    ]);
  });

  it('finds URLs written in visible text, but not inside links, scripts or attributes', () => {
    const html = `<p>See https://a.test/x?y=1&amp;z=2. Or (www.b.test/page), and http://c.test/wiki/Foo_(bar)!</p>
      <a href="/l">https://inside.test/link</a><script>var u = "https://script.test/"</script><img alt="https://alt.test/">`;
    expect(
      linksOf(html)
        .filter((link) => link[0] === 'text')
        .map((link) => link[1]),
    ).toEqual(['https://a.test/x?y=1&z=2', 'http://www.b.test/page', 'http://c.test/wiki/Foo_(bar)']);
    expect(
      linksOf(html, { textLinks: false, feedLinks: false, robotsAgent: null }).filter((link) => link[0] === 'text'),
    ).toEqual([]);
  });

  it('follows URLs inside JSON-LD', () => {
    const html = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle","url":"https://a.test/story","image":{"@type":"ImageObject","url":"https://a.test/i.jpg"},
      "isPartOf":{"@type":"WebSite","url":"https://a.test/"},"relatedLink":["https://a.test/r1"]}</script>`;
    expect(
      linksOf(html)
        .map((link) => link[1])
        .sort(),
    ).toEqual(['https://a.test/', 'https://a.test/r1', 'https://a.test/story']);
  });

  it('reads meta robots directives', () => {
    expect(extractHtml('<meta name="robots" content="noindex, nofollow">', limits)).toMatchObject({
      noindex: true,
      nofollow: true,
    });
    expect(extractHtml('<meta name="ROBOTS" content="none">', limits)).toMatchObject({ noindex: true, nofollow: true });
    expect(extractHtml('<meta name="robots" content="index,follow">', limits)).toMatchObject({
      noindex: false,
      nofollow: false,
    });
  });

  it('takes the main text, title, description, language and publish date from the page', () => {
    const body = Array.from(
      { length: 5 },
      (_, i) => `<p>Paragraph ${i} of the story, long enough to count, with commas, clauses, and detail.</p>`,
    ).join('');
    const html = `<html><head><title>Story | Site</title><meta property="og:description" content="OG description"><meta property="og:locale" content="en_GB">
      <meta property="article:published_time" content="2024-03-05T10:00:00Z"></head><body><nav><a href="/">Home</a></nav><article>${body}</article></body></html>`;
    const result = extractHtml(html, limits);
    expect(result.text.split('\n')).toHaveLength(5);
    expect(result).toMatchObject({
      title: 'Story | Site',
      description: 'OG description',
      lang: 'en-GB',
      publishedAt: Date.UTC(2024, 2, 5, 10),
      textMethod: 'scored',
    });
  });

  it('gives Open Graph, JSON-LD and microdata as fields for free', () => {
    const html = `<meta property="og:title" content="OG title"><meta property="article:section" content="Tech">
      <script type="application/ld+json">{"@type":"Article","headline":"LD headline","author":{"@type":"Person","name":"Ann"}}</script>
      <div itemscope itemtype="https://schema.org/Product"><span itemprop="name">Widget</span><meta itemprop="sku" content="W-1"></div>`;
    expect(Object.fromEntries(extractHtml(html, limits).fields)).toEqual({
      'og:title': ['OG title'],
      'article:section': ['Tech'],
      'jsonld:@type': ['Article'],
      'jsonld:headline': ['LD headline'],
      'jsonld:author': ['Ann'],
      'microdata:@type': ['Product'],
      'microdata:name': ['Widget'],
      'microdata:sku': ['W-1'],
    });
  });

  it('collects each link once and up to a bound of distinct links, caps anchor text, and says so', () => {
    const repeats = Array.from({ length: 500 }, (_, i) => `<a href="/x#entry-${i}">x</a>`).join('');
    const html = `<a href="/x">${'long anchor text '.repeat(10)}</a>${repeats}${Array.from({ length: 200 }, (_, i) => `<a href="/${i}">${i}</a>`).join('')}`;
    const result = extractHtml(html, { ...limits, maxLinks: 50 });
    // 201 distinct links; the bound is RAW_LINKS_PER_KEPT_LINK x 50 = 200, and the 500 repeats of /x cost nothing.
    expect(result.links).toHaveLength(200);
    expect(result.linksOverflow).toBe(1);
    expect(result.links[0]!.anchor).toBe('long anchor text lon');
    expect(result.warnings).toEqual(['links-capped']);
  });

  it('flags a broken JSON-LD block and goes on', () => {
    expect(extractHtml('<script type="application/ld+json">{ not json</script><p>ok</p>', limits).warnings).toEqual([
      'jsonld-invalid',
    ]);
  });

  it('survives broken markup', () => {
    const result = extractHtml('<div><a href="/ok">ok<p>unclosed <a href=/two>two</div></body><<<>', limits);
    expect(result.links.map((link) => link.href)).toEqual(['/ok', '/two']);
  });

  it('renders the main text as Markdown, links and images absolute against the page and its <base href>', () => {
    const html = `<head><title>T</title><base href="https://cdn.example.test/docs/"></head><body><article>
      <h2>Setup</h2><p>${'Read the guide before anything else, it explains the terms. '.repeat(3)}
      <a href="next.html">Next page</a>, <a href="javascript:go()">a script</a> and <img src="/i.png" alt="diagram"></p></article></body>`;
    const page = 'https://www.example.test/a/b.html';
    const { markdown, text } = extractHtml(html, limits, undefined, page);
    expect(markdown).toContain('## Setup\n\nRead the guide');
    expect(markdown).toContain(
      '[Next page](https://cdn.example.test/docs/next.html), a script and ![diagram](https://cdn.example.test/i.png)',
    );
    expect(text).toContain('Next page, a script and');
    // Without the page's URL a relative link stays as written.
    expect(extractHtml(html, limits).markdown).toContain('[Next page](next.html)');
  });

  it('ends the Markdown at its last whole block under the cap and flags the page', () => {
    const html = Array.from(
      { length: 40 },
      (_, i) => `<p>Paragraph ${i} says something about the subject, at length.</p>`,
    ).join('');
    const result = extractHtml(html, { ...limits, maxMarkdownChars: 1000 });
    expect(result.warnings).toContain('markdown-capped');
    expect(result.markdown!.length).toBeLessThanOrEqual(1000);
    expect(result.markdown!.endsWith('at length.')).toBe(true);
    expect(result.text).toContain('Paragraph 39');
  });
});
