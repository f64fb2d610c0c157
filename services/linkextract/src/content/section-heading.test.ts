import { describe, expect, it } from 'vitest';
import { isNode, type ContentNode } from './content-node.js';
import { leadingHeading, opensWithHeading } from './section-heading.js';
import { treeOf } from './test-tree.js';

const element = (html: string): ContentNode => {
  const body = treeOf(`<body>${html}</body>`).root.children.find(isNode)!;
  return body.children.find(isNode)!;
};

describe('leadingHeading', () => {
  it('finds the heading whose text comes first, however deep, past empty elements and whitespace', () => {
    const node = element(
      '<div> <div class="titlepage"><div><span></span><h2>Chapter 9</h2></div></div><p>Text</p></div>',
    );
    expect(leadingHeading(node)?.tag).toBe('h2');
  });

  it('is null when other text comes first', () => {
    expect(leadingHeading(element('<div><p>Intro</p><h2>Later</h2></div>'))).toBeNull();
    expect(leadingHeading(element('<div>Loose text <h2>Later</h2></div>'))).toBeNull();
  });

  it('skips what it is told to skip (furniture already removed)', () => {
    const node = element('<div><nav>Home</nav><h1>Title</h1></div>');
    const nav = node.children.find(isNode)!;
    expect(opensWithHeading(node, new Set())).toBe(false);
    expect(opensWithHeading(node, new Set([nav]))).toBe(true);
  });
});
