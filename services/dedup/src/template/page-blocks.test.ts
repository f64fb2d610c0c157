import { randomText, seededRandom } from '@crawler/core/testing';
import { extractHtml, extractLimitsOf, loadLinkextractConfig } from '@crawler/linkextract';
import { describe, expect, it } from 'vitest';
import { collapse, extractBlocks, maskText } from './page-blocks.js';

const page = (stamp: string, id: number) => `<!doctype html><html><head><title>T</title><style>p{}</style></head><body>
<header class="top bar"><nav><a href="/">Home</a> <a href="/news">News</a></nav><p class="stamp">Updated ${stamp}</p></header>
<article id="post-${id}" class="story"><h1>Headline</h1><p>First paragraph with <b>bold</b> text &amp; an entity.</p>
<script>var x = "<p>not text</p>";</script><p>Second<br>line after a break.</p></article></body></html>`;

describe('extractBlocks', () => {
  it('cuts text at block elements, skips scripts and decodes entities', () => {
    expect(extractBlocks(page('10:42', 1)).map((block) => block.text)).toEqual([
      'Home News',
      'Updated 10:42',
      'Headline',
      'First paragraph with bold text & an entity.',
      'Second',
      'line after a break.',
    ]);
  });

  it('gives the same path to the same place on another page, digits in ids and classes masked', () => {
    const [a, b] = [extractBlocks(page('10:42', 1)), extractBlocks(page('11:07', 2))];
    expect(a.map((block) => block.path)).toEqual(b.map((block) => block.path));
    expect(a[1]!.masked).toBe(b[1]!.masked);
    expect(a[1]!.text).not.toBe(b[1]!.text);
    expect(new Set(a.map((block) => block.path)).size).toBe(4);
  });

  it('yields the lines link extraction puts in the main text', () => {
    const html = `<html><body><nav><a href="/a">A</a></nav><div class="content"><h1>Harbor ferries</h1>
      <p>The harbor authority approved a new ferry schedule on Monday, after months of complaints.</p>
      <p>Ferries will leave every twenty minutes during the morning rush, the authority <em>said</em>.</p>
      <ul><li>First point of the plan, explained at length for readers.</li><li>Second point, also long enough to keep.</li></ul>
      <p>The last evening crossing moves to midnight, and weekend crossings may follow in the autumn.</p></div></body></html>`;
    const lines = extractHtml(html, extractLimitsOf(loadLinkextractConfig({ env: {} }))).text.split('\n');
    const texts = new Set(extractBlocks(html).map((block) => block.text));
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect(texts).toContain(line);
  });

  it('collapses whitespace runs to one space and trims, as the two replaces of link extraction do', () => {
    const reference = (value: string) =>
      value
        .replace(/[\r\n]+/g, ' ')
        .replace(/[ \t\f\r\u00a0\u200b]+/g, ' ')
        .trim();
    const alphabet = ['a', 'b', ' ', '\n', '\r', '\t', '\f', '\u00a0', '\u200b', '\u2003', '\ufeff'];
    const random = seededRandom(11);
    for (let n = 0; n < 3000; n++) {
      const value = randomText(random, alphabet, Math.floor(random() * 12));
      expect(collapse(value), JSON.stringify(value)).toBe(reference(value));
    }
    expect(collapse('\n    Home \u00a0 News\n  ')).toBe('Home News');
  });

  it('masks digit runs and case', () => {
    expect(maskText('Updated 10:42 · 1,234 Reads')).toBe('updated #:# · #,# reads');
  });
});
