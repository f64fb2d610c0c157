import { describe, expect, it } from 'vitest';
import { extractHtml } from './extract-html.js';

const limits = { maxLinks: 100, maxAnchorChars: 20, maxTextChars: 10_000 };

describe('extractHtml', () => {
  it('finds links of every kind with anchors and rel', () => {
    const html = `<html lang="fr"><head><title> My  Page </title><base href="/base/">
      <link rel="canonical" href="/canon"><link rel="next" href="/p2"><link rel="stylesheet" href="/s.css">
      <meta name="description" content="About  things"><meta http-equiv="refresh" content="0; url=/refreshed"></head>
      <body><a href="/a" rel="nofollow">Anchor <b>A</b></a><map><area href="/area" alt="Area"></map>
      <frameset><frame src="/frame"></frameset><iframe src="/iframe"></iframe><a name="no-href">x</a></body></html>`;
    const result = extractHtml(html, limits);
    expect(result.title).toBe('My Page');
    expect(result.lang).toBe('fr');
    expect(result.baseHref).toBe('/base/');
    expect(result.canonical).toBe('/canon');
    expect(result.description).toBe('About things');
    expect(result.links.map((link) => [link.source, link.href, link.anchor, link.rel])).toEqual([
      ['canonical', '/canon', null, 'canonical'],
      ['link', '/p2', null, 'next'],
      ['meta-refresh', '/refreshed', null, null],
      ['a', '/a', 'Anchor A', 'nofollow'],
      ['area', '/area', 'Area', null],
      ['frame', '/frame', null, null],
      ['iframe', '/iframe', null, null],
    ]);
  });

  it('keeps visible text only, separating blocks', () => {
    const html = '<head><title>T</title><style>p{}</style></head><body><script>var x = "<p>no</p>";</script><h1>Head</h1><p>One&amp;two</p><noscript>hidden</noscript><div>three</div></body>';
    expect(extractHtml(html, limits).text).toBe('Head\nOne&two\nthree');
  });

  it('reads meta robots directives', () => {
    expect(extractHtml('<meta name="robots" content="noindex, nofollow">', limits)).toMatchObject({ noindex: true, nofollow: true });
    expect(extractHtml('<meta name="ROBOTS" content="none">', limits)).toMatchObject({ noindex: true, nofollow: true });
    expect(extractHtml('<meta name="robots" content="index,follow">', limits)).toMatchObject({ noindex: false, nofollow: false });
  });

  it('caps links, anchor text and text, and says so', () => {
    const html = `<a href="/x">${'long anchor text '.repeat(10)}</a>${Array.from({ length: 200 }, (_, i) => `<a href="/${i}">${i}</a>`).join('')}`;
    const result = extractHtml(html, { maxLinks: 50, maxAnchorChars: 20, maxTextChars: 100 });
    expect(result.links).toHaveLength(50);
    expect(result.links[0]!.anchor!.length).toBeLessThanOrEqual(20);
    expect(result.warnings.sort()).toEqual(['links-capped', 'text-capped']);
  });

  it('survives broken markup', () => {
    const result = extractHtml('<div><a href="/ok">ok<p>unclosed <a href=/two>two</div></body><<<>', limits);
    expect(result.links.map((link) => link.href)).toEqual(['/ok', '/two']);
  });
});
