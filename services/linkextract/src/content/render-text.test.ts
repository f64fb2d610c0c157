import { describe, expect, it } from 'vitest';
import { createNode } from './content-node.js';
import { renderText } from './render-text.js';
import { treeOf } from './test-tree.js';

describe('renderText', () => {
  it('puts blocks on their own lines and runs inline elements together', () => {
    const { root } = treeOf('<h1>Head</h1><p>One <b>bold</b>\n  word<span>s</span></p><ul><li>a</li><li>b<br>c</li></ul><table><tr><td>x</td><td>y</td></tr></table>');
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
