import { describe, expect, it } from 'vitest';
import { createNode } from './content-node.js';
import { extractMainContent } from './main-content.js';
import { treeOf } from './test-tree.js';

const sentence = (topic: string, i: number) =>
  `The ${topic} report, published on day ${i}, explains in some detail why the numbers moved, who was asked, and what changes next.`;
const paragraphs = (topic: string, n: number) =>
  Array.from({ length: n }, (_, i) => `<p>${sentence(topic, i)}</p>`).join('');
const mainText = (html: string, title: string | null = null) => {
  const { text, method } = extractMainContent(treeOf(html).root, title);
  return { text, method };
};

const page = `<body>
  <header><nav><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></nav></header>
  <div class="layout">
    <div class="sidebar"><h3>Most read</h3>${paragraphs('sidebar', 2)}</div>
    <div class="story-body"><h1>Budget passes</h1>${paragraphs('budget', 10)}
      <p><strong>READ MORE:</strong> <a href="/other">A much longer headline about something else entirely</a></p>
      <div class="share"><a href="#">Share on X</a> <a href="#">Share by mail</a></div>
      <ul class="related"><li><a href="/1">Related one</a></li><li><a href="/2">Related two</a></li></ul>
    </div>
    <div id="comments"><h3>Comments</h3>${paragraphs('comment', 3)}</div>
  </div>
  <footer><p>Copyright 2026 The Paper, all rights reserved, a very long footer line</p></footer>
</body>`;

describe('extractMainContent', () => {
  it('keeps the article and drops navigation, sidebar, comments, share and related boxes and link lines', () => {
    const result = mainText(page, 'Budget passes - The Paper');
    expect(result.method).toBe('scored');
    expect(result.text.split('\n')).toEqual(Array.from({ length: 10 }, (_, i) => sentence('budget', i)));
  });

  it('joins article chunks that share the container markup, skipping what sits between them', () => {
    const html = `<body><div class="chunks">
      <div class="grid"><div class="article-body">${paragraphs('first', 3)}</div><aside class="rail">${paragraphs('ad', 1)}</aside></div>
      <div class="ad-row"><p>Advertisement</p></div>
      <div class="grid"><div class="article-body">${paragraphs('second', 6)}</div></div>
    </div></body>`;
    const lines = mainText(html).text.split('\n');
    expect(lines).toHaveLength(9);
    expect(lines[0]).toBe(sentence('first', 0));
    expect(lines[8]).toBe(sentence('second', 5));
  });

  it('scores text written straight into a container between its blocks', () => {
    const html = `<body><div class="menu-links"><a href="/a">A</a> <a href="/b">B</a></div><div class="post">${sentence('loose', 1)}<br><div class="separator"><img src="x.jpg"></div>${sentence('loose', 2)}<br>${sentence('loose', 3)}</div></body>`;
    expect(mainText(html).text.split('\n')).toEqual([1, 2, 3].map((i) => sentence('loose', i)));
  });

  it('keeps a list of points in the story, even one that scores below zero; a list of links goes', () => {
    // Items wrapped in paragraphs give the list only half their points: four of them leave it
    // below the score a list starts from.
    const list = (items: string[]) => `<ul>${items.map((item) => `<li><p>${item}</p></li>`).join('')}</ul>`;
    const points = ['Rates go up by a quarter point', 'Mortgages get dearer this spring', 'Savers gain a little more'];
    const related = ['One', 'Two', 'Three'].map((n) => `<a href="/${n}">Related story number ${n} here</a>`);
    const html = `<body><article>${paragraphs('rates', 4)}${list(points)}${paragraphs('rates', 4)}${list(related)}</article></body>`;
    const text = mainText(html).text;
    expect(text).toContain(points.join('\n'));
    expect(text).not.toContain('Related story');
  });

  it('keeps embedded posts quoted in the story', () => {
    const html = `<body><article>${paragraphs('story', 4)}<div class="social-media-embed"><blockquote class="twitter-tweet"><p>Quoted post with a <a href="https://t.co/x">https://t.co/x</a> link in it, long enough.</p>— Someone (@someone)</blockquote></div>${paragraphs('story', 2)}</article></body>`;
    expect(mainText(html).text).toContain('Quoted post with a https://t.co/x link in it');
  });

  it('retries with fewer signals when a furniture-like class wraps the whole article', () => {
    const html = `<body><div class="page-ad-margins"><div class="content">${paragraphs('wrapped', 8)}</div></div></body>`;
    expect(mainText(html).text.split('\n')).toHaveLength(8);
  });

  it('falls back to the visible page text, furniture removed, when nothing reads like an article', () => {
    const html = '<body><nav><a href="/">Home</a></nav><h1>Counter</h1><div>You are visitor 4711.</div></body>';
    expect(mainText(html)).toEqual({ text: 'Counter\nYou are visitor 4711.', method: 'page' });
  });

  it('trusts the page’s own <main> when there is too little prose to score', () => {
    const html =
      '<body><table><tr><td><a href="/a">Side A</a><br><a href="/b">Side B</a></td><td><main><h1>Navigation</h1><p>Pick a page.</p><ul><li><a href="/w">Welcome</a></li></ul></main></td></tr></table><font>Best viewed with any browser at 800x600.</font></body>';
    expect(mainText(html).text).toBe('Navigation\nPick a page.\nWelcome');
  });

  it('drops the headline that repeats the page title from a story (a short page keeps it)', () => {
    const html = `<body><article><h1>Rates rise again</h1><h2>What it means for you</h2>${paragraphs('rates', 10)}</article></body>`;
    const lines = mainText(html, 'Rates rise again | Daily').text.split('\n');
    expect(lines[0]).toBe('What it means for you');
    expect(lines).toHaveLength(11);
  });

  it('handles a tree far deeper than the call stack', () => {
    const root = createNode('#root', null);
    let node = root;
    for (let i = 0; i < 50_000; i++) {
      const child = createNode('div', node);
      node.children.push(child);
      node = child;
    }
    node.children.push(sentence('deep', 1));
    expect(extractMainContent(root, null).text).toBe(sentence('deep', 1));
  });

  it('returns nothing for an empty document', () => {
    expect(mainText('')).toEqual({ text: '', method: 'page' });
  });
});
