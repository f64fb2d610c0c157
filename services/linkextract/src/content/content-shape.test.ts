import { describe, expect, it } from 'vitest';
import { isNode, type ContentNode } from './content-node.js';
import { bestProseReadsAs, readsAsDocument } from './content-shape.js';
import { computeStats } from './node-stats.js';
import { treeOf } from './test-tree.js';

/** The tree of some markup with its statistics, and its element with the given id. */
const page = (html: string) => {
  const { root } = treeOf(html);
  const all = computeStats(root);
  return { root, byId: (id: string): ContentNode => all.find((node) => node.id === id)! };
};
const prose = 'Rates rose again in March, the third rise this year, and lenders expect more. ';
const links = (n: number) => Array.from({ length: n }, (_, i) => `<li><a href="/${i}">Entry ${i}</a></li>`).join('');

describe('bestProseReadsAs', () => {
  it('reads links when the best prose found is mostly links', () => {
    const { root, byId } = page(`<body><ul id="best">${links(30)}</ul><p>${prose}</p></body>`);
    expect(bestProseReadsAs(byId('best'), root)).toBe('links');
  });

  it('reads a sliver when the best is a sliver of a page whose text is elsewhere', () => {
    const { root, byId } = page(
      `<body><td id="best">Chapter 52. Overview of the internals</td><dl>${links(40)}</dl></body>`,
    );
    expect(bestProseReadsAs(byId('best'), root)).toBe('sliver');
  });

  it('reads content for a story with its links around it', () => {
    const { root, byId } = page(`<body><div id="best"><p>${prose.repeat(4)}</p></div><ul>${links(10)}</ul></body>`);
    expect(bestProseReadsAs(byId('best'), root)).toBe('content');
  });
});

describe('readsAsDocument', () => {
  it('is true when the content, or its largest part, opens with a heading', () => {
    const { byId } = page(`<body><div id="doc"><h2>Chapter 3</h2><p>${prose}</p></div></body>`);
    expect(readsAsDocument(byId('doc'), new Set())).toBe(true);
    const { byId: inPage } = page(
      `<body><div id="page"><table><tr><td><a href="/p">Prev</a> Part II</td></tr></table><div><h2>Chapter 3</h2><p>${prose.repeat(3)}</p></div></div></body>`,
    );
    expect(readsAsDocument(inPage('page'), new Set())).toBe(true);
  });

  it('is false for a story whose text opens with prose', () => {
    const { byId } = page(`<body><div id="story"><p>${prose}</p><h2>What next</h2><p>${prose}</p></div></body>`);
    expect(readsAsDocument(byId('story'), new Set())).toBe(false);
    expect(readsAsDocument(byId('story').children.find(isNode)!, new Set())).toBe(false);
  });
});
