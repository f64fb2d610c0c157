import { randomText, seededRandom } from '@crawler/core/testing';
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { createNode } from './content-node.js';
import { renderMarkdown, type MarkdownOptions } from './render-markdown.js';
import { collapseWhitespace } from './render-text.js';
import { treeOf } from './test-tree.js';

const page = new URL('https://docs.example.test/guide/page.html');
const options: MarkdownOptions = {
  resolveUrl: (href) => {
    const url = new URL(href, page);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  },
  maxChars: 100_000,
};
const keepAll = () => false;
const markdownOf = (html: string, skip: (tag: string) => boolean = () => false) => {
  const { root } = treeOf(html);
  return renderMarkdown([root], (node) => skip(node.tag), options).markdown;
};

/** An independent CommonMark reader: what a consumer of the Markdown gets. */
const reader = new MarkdownIt({ html: true });
const readBack = (markdown: string) => reader.render(markdown);

describe('renderMarkdown', () => {
  it('writes headings, paragraphs, emphasis, inline code, and links and images with absolute URLs', () => {
    const markdown = markdownOf(
      `<h2>Install <code>pkg</code></h2><p>Run <strong>this</strong> <em>first</em>, see <a href="../ref/a.html#x">the reference</a>
       and <a href="https://other.test/p?q=(1)">this (one)</a>.</p><p><a href="/big.png"><img src="thumb.png" alt="A chart"></a></p>`,
    );
    expect(markdown).toBe(
      [
        '## Install `pkg`',
        '',
        'Run **this** *first*, see [the reference](https://docs.example.test/ref/a.html#x) and [this (one)](<https://other.test/p?q=(1)>).',
        '',
        '[![A chart](https://docs.example.test/guide/thumb.png)](https://docs.example.test/big.png)',
      ].join('\n'),
    );
    expect(readBack(markdown)).toContain('<a href="https://other.test/p?q=(1)">this (one)</a>');
  });

  it('nests lists, numbers ordered ones and keeps an item’s paragraphs and code inside it', () => {
    const markdown = markdownOf(
      '<p>Steps:</p><ol><li>Get it<ul><li>from the mirror</li><li>or the site</li></ul></li><li><p>Build it.</p><pre>make\nmake install</pre></li></ol><p>Done.</p>',
    );
    expect(markdown).toBe(
      [
        'Steps:',
        '',
        '1. Get it',
        '   - from the mirror',
        '   - or the site',
        '2. Build it.',
        '',
        '   ```',
        '   make',
        '   make install',
        '   ```',
        '',
        'Done.',
      ].join('\n'),
    );
    const html = readBack(markdown);
    expect(html).toContain('<li>from the mirror</li>');
    expect(html).toMatch(/<li>\s*<p>Build it.<\/p>\s*<pre><code>make\nmake install\n<\/code><\/pre>\s*<\/li>/);
  });

  it('writes a data table in GitHub’s form, its first row the header, a cell’s blocks on one line', () => {
    const markdown = markdownOf(
      `<table><caption>Table 1. Operators</caption><thead><tr><th>Operator</th><th>Meaning</th></tr></thead>
       <tbody><tr><td><code>a || b</code></td><td><p>Concatenates.</p><p>Example: <code>'x' || 'y'</code></p></td></tr>
       <tr><td>|</td></tr></tbody></table>`,
    );
    expect(markdown).toBe(
      [
        'Table 1. Operators',
        '',
        '| Operator | Meaning |',
        '| --- | --- |',
        "| `a \\|\\| b` | Concatenates.<br>Example: `'x' \\|\\| 'y'` |",
        '| \\| |  |',
      ].join('\n'),
    );
    expect(readBack(markdown)).toContain(
      "<td><code>a || b</code></td>\n<td>Concatenates.<br>Example: <code>'x' || 'y'</code></td>",
    );
  });

  it('reads a table that lays lists out side by side as its cells in order, lists kept', () => {
    const markdown = markdownOf(
      '<table class="indextable"><tr><td><ul><li>abs()</li><li>all()</li></ul></td><td><ul><li>any()</li></ul></td></tr></table>',
    );
    expect(markdown).toBe(['- abs()', '- all()', '', '- any()'].join('\n'));
  });

  it('fences code with the language its classes name, longer than any backtick run inside', () => {
    const markdown = markdownOf(
      '<div class="highlight-python3 notranslate"><div class="highlight"><pre>\nprint("```")\n</pre></div></div><pre class="programlisting">SELECT 1;</pre>',
    );
    expect(markdown).toBe(['````python3', 'print("```")', '````', '', '```', 'SELECT 1;', '```'].join('\n'));
  });

  it('escapes what would read as Markdown, so the text reads back as written', () => {
    const text = [
      '# not a heading',
      '1. not a list',
      '- nor this',
      'a * b _c_ snake_case [x](y) `z` <b>tag</b> &amp; \\ end',
      '> not a quote',
      '===',
    ];
    const markdown = markdownOf(
      text.map((line) => `<p>${line.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p>`).join(''),
    );
    expect(markdown).toContain('snake_case');
    const paragraphs = [...readBack(markdown).matchAll(/<p>(.*?)<\/p>/g)].map((match) => decodeHtml(match[1]!));
    expect(paragraphs).toEqual(text);
  });

  it('reads back as the text for any mix of Markdown’s special characters', () => {
    const random = seededRandom(7);
    for (let round = 0; round < 300; round++) {
      const text = collapseWhitespace(
        randomText(
          random,
          [
            'a',
            'b',
            ' ',
            '*',
            '_',
            '`',
            '[',
            ']',
            '(',
            ')',
            '#',
            '>',
            '-',
            '+',
            '=',
            '1',
            '.',
            '!',
            '<',
            '&',
            ';',
            '\\',
            '|',
            '~',
          ],
          24,
        ),
      );
      if (text === '') continue;
      const markdown = markdownOf(`<p>${text.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p>`);
      const html = readBack(markdown);
      expect(decodeHtml(html.replace(/^<p>|<\/p>\n$/g, '')), markdown).toBe(text);
    }
  });

  it('quotes, breaks lines and rules off, and leaves out permalinks, unfollowable links and skipped parts', () => {
    const markdown = markdownOf(
      `<h3>Usage<a class="headerlink" href="#usage">¶</a></h3><blockquote><p>Line one<br>line two</p><ul><li>point</li></ul></blockquote><hr>
       <p><a href="javascript:void(0)">Click</a> <a href="#">  </a><aside>skipped</aside></p>`,
      (tag) => tag === 'aside',
    );
    expect(markdown).toBe(
      ['### Usage', '', '> Line one\\', '> line two', '>', '> - point', '', '---', '', 'Click'].join('\n'),
    );
  });

  it('joins adjacent bold runs and writes no emphasis inside headings', () => {
    expect(markdownOf('<h2><b>5 Tips</b></h2><p><b>Game D</b><b>ay</b> and <i>x</i> <i>y</i></p>')).toBe(
      '## 5 Tips\n\n**Game Day** and *x* *y*',
    );
  });

  it('ends on a whole block at the cap and says so', () => {
    const { root } = treeOf('<p>first paragraph</p><p>second paragraph</p>');
    expect(renderMarkdown([root], keepAll, { ...options, maxChars: 25 })).toEqual({
      markdown: 'first paragraph',
      capped: true,
    });
  });

  it('walks trees far deeper than the call stack without recursion', () => {
    const root = createNode('#root', null);
    let node = root;
    for (let i = 0; i < 50_000; i++) {
      const child = createNode(i % 2 === 0 ? 'div' : 'blockquote', node);
      node.children.push(child);
      node = child;
    }
    node.children.push('deep');
    const markdown = renderMarkdown([root], keepAll, options).markdown;
    expect(markdown.endsWith('> deep')).toBe(true);
  });
});

function decodeHtml(html: string): string {
  return html
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}
