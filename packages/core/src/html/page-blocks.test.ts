import { describe, expect, it } from 'vitest';
import { Schemas } from '../messages.js';
import { sampleMessages } from '../testing/sample-messages.js';
import { randomText, seededRandom } from '../testing/seeded-random.js';
import { collapse, maskText, readBlocks } from './page-blocks.js';

const page = (stamp: string, id: number) => `<!doctype html><html><head><title>T</title><style>p{}</style></head><body>
<header class="top bar"><nav><a href="/">Home</a> <a href="/news">News</a></nav><p class="stamp">Updated ${stamp}</p></header>
<article id="post-${id}" class="story"><h1>Headline</h1><p>First paragraph with <b>bold</b> text &amp; an entity.</p>
<script>var x = "<p>not text</p>";</script><p>Second<br>line after a break.</p></article></body></html>`;

describe('readBlocks', () => {
  it('cuts text at block elements, skips scripts and decodes entities', () => {
    expect(readBlocks(page('10:42', 1)).blocks.map((block) => block.text)).toEqual([
      'Home News',
      'Updated 10:42',
      'Headline',
      'First paragraph with bold text & an entity.',
      'Second',
      'line after a break.',
    ]);
  });

  it('gives the same path to the same place on another page, digits in ids and classes masked', () => {
    const [a, b] = [readBlocks(page('10:42', 1)).blocks, readBlocks(page('11:07', 2)).blocks];
    expect(a.map((block) => block.path)).toEqual(b.map((block) => block.path));
    expect(a[1]!.masked).toBe(b[1]!.masked);
    expect(a[1]!.text).not.toBe(b[1]!.text);
    expect(new Set(a.map((block) => block.path)).size).toBe(4);
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

  it('counts the text of blocks past the cap', () => {
    const html = `<ul>${Array.from({ length: 2100 }, (_, i) => `<li>item ${i}</li>`).join('')}</ul>`;
    const { blocks, textChars } = readBlocks(html);
    expect(blocks).toHaveLength(2000);
    expect(textChars).toBe(Array.from({ length: 2100 }, (_, i) => `item ${i}`.length).reduce((a, b) => a + b, 0));
  });

  it("are the saved ParsedPage sample's blocks of its body", () => {
    const sample = sampleMessages[Schemas.ParsedPage];
    expect(readBlocks(sample.body.toString('utf8'))).toEqual(sample.pageBlocks);
  });

  it('masks digit runs and case', () => {
    expect(maskText('Updated 10:42 · 1,234 Reads')).toBe('updated #:# · #,# reads');
  });
});
