import { randomText, seededRandom } from '@crawler/core/testing';
import { describe, expect, it } from 'vitest';
import { createNode } from './content-node.js';
import { collapseWhitespace, renderText } from './render-text.js';
import { treeOf } from './test-tree.js';

describe('renderText', () => {
  it('puts blocks on their own lines and runs inline elements together', () => {
    const { root } = treeOf(
      '<h1>Head</h1><p>One <b>bold</b>\n  word<span>s</span></p><ul><li>a</li><li>b<br>c</li></ul><table><tr><td>x</td><td>y</td></tr></table>',
    );
    expect(renderText([root])).toBe('Head\nOne bold words\na\nb\nc\nx\ny');
  });

  it('keeps line breaks inside <pre> only', () => {
    const { root } = treeOf('<p>a\nb</p><pre>line 1\nline 2</pre>');
    expect(renderText([root])).toBe('a b\nline 1\nline 2');
  });

  it('skips subtrees it is told to skip', () => {
    const { root } = treeOf('<div><p>keep</p><aside>drop</aside></div>');
    expect(renderText([root], (node) => node.tag === 'aside')).toBe('keep');
  });

  it('walks trees far deeper than the call stack without recursion', () => {
    const root = createNode('#root', null);
    let node = root;
    for (let i = 0; i < 50_000; i++) {
      const child = createNode('span', node);
      node.children.push(child);
      node = child;
    }
    node.children.push('x');
    expect(renderText([root])).toBe('x');
  });
});

describe('collapseWhitespace', () => {
  it('gives what the regex definition gives: space runs to one space, newline with its surrounding whitespace to one newline, trimmed', () => {
    const reference = (value: string) =>
      !/[\t\n\f\r\u00a0\u200b]| {2}|^ | $/.test(value)
        ? value
        : value
            .replace(/[ \t\f\r\u00a0\u200b]+/g, ' ')
            .replace(/ ?\n\s*/g, '\n')
            .trim();
    const alphabet = [
      'a',
      'b',
      ' ',
      ' ',
      '\n',
      '\r',
      '\t',
      '\f',
      '\v',
      '\u00a0',
      '\u200b',
      '\u2003',
      '\u3000',
      '\ufeff',
      '\u2028',
    ];
    const random = seededRandom(5);
    for (let n = 0; n < 5000; n++) {
      const value = randomText(random, alphabet, Math.floor(random() * 14));
      expect(collapseWhitespace(value), JSON.stringify(value)).toBe(reference(value));
    }
    expect(collapseWhitespace('  Harbor \n\n  ferries\t leave \n')).toBe('Harbor\nferries leave');
  });
});
