import { describe, expect, it } from 'vitest';
import { isNode } from './content-node.js';
import { descendants } from './node-stats.js';
import { renderText } from './render-text.js';
import { treeOf } from './test-tree.js';

describe('content tree builder', () => {
  it('keeps elements with their id/class signature and leaves out invisible ones', () => {
    const { root } = treeOf(
      '<head><title>T</title></head><body><div id="Main" class="Story Body"><p>Hi</p><script>var x = "<p>no</p>";</script><style>p{}</style><noscript>ns</noscript></div></body>',
    );
    const div = descendants(root).find((node) => node.tag === 'div')!;
    expect(div.signature).toBe('main story body');
    expect(div.children.filter(isNode).map((node) => node.tag)).toEqual(['p']);
    expect(renderText([root])).toBe('Hi');
  });

  it('flags hidden elements', () => {
    const { root } = treeOf(
      '<div hidden>a</div><div aria-hidden="true">b</div><div style="display: none">c</div><div style="color:red">d</div>',
    );
    expect(
      descendants(root)
        .filter((node) => node.tag === 'div')
        .map((node) => node.hidden),
    ).toEqual([true, true, true, false]);
  });

  it('flattens nesting past the cap into the deepest kept element, and says so', () => {
    const depth = 5000;
    const { root, warnings } = treeOf(`${'<div>'.repeat(depth)}deep${'</div>'.repeat(depth)}<p>after</p>`, {
      maxNodes: 100_000,
      maxDepth: 100,
      maxTextChars: 1000,
    });
    expect(warnings).toEqual(new Set(['nesting-capped']));
    expect(descendants(root)).toHaveLength(102);
    expect(renderText([root])).toBe('deep\nafter');
  });

  it('stops materializing elements past the element cap and text past the text cap', () => {
    const { root, warnings } = treeOf(`${'<p>word</p>'.repeat(100)}`, {
      maxNodes: 10,
      maxDepth: 100,
      maxTextChars: 100,
    });
    expect(warnings).toEqual(new Set(['elements-capped', 'text-capped']));
    expect(descendants(root)).toHaveLength(11);
    expect(renderText([root]).replace(/\s/g, '')).toHaveLength(100);
  });
});
