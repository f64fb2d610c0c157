import { headline } from '@crawler/dedup';
import { escapeHtml, pageTitle, stamp } from './article-variants.js';
import type { LabeledWeb } from './near-duplicate-eval.js';
import type { CorpusPage } from '../article-corpus.js';

/**
 * The same article reprinted on another site, in that site's template and under that site's own
 * headline: the real page of the article-extraction benchmark against its gold text on one of five
 * reprinting sites. Each site writes its own headline (the lede cut short, a kicker before half the
 * original, an explainer's "What we know"), adds its boilerplate inside the story (a credit line, a
 * "Read also" between paragraphs, a newsletter call) and its chrome around it. Every pair that is
 * not an article and its reprint is a negative (different articles, some on one story).
 */
export function reprintsUnderOwnHeadline(articles: readonly CorpusPage[]): LabeledWeb {
  const web: LabeledWeb = { pages: [], groups: [], negatives: [], skipped: {}, exhaustive: true };
  const headlines = articles.map((article) => headline(pageTitle(article.html)) || lede(article.truth, 10));
  articles.forEach((article, i) => {
    const site = SITES[i % SITES.length]!;
    const paragraphs = article.truth
      .split(/\n+/)
      .map((line) => line.trim())
      .filter(Boolean);
    const own = site.headline(headlines[i]!, article.truth);
    const related = headlines[(i + 7) % headlines.length]!;
    const reprint = { url: `https://${site.host}/${site.path(i)}`, html: site.render(own, paragraphs, i, related) };
    web.pages.push({ url: article.url, html: article.html }, reprint);
    web.groups.push({ kind: 'reprint under its own headline', urls: [article.url, reprint.url] });
  });
  for (let i = 0; i < articles.length; i++)
    for (let j = i + 1; j < articles.length; j++)
      web.negatives.push({ kind: 'different articles', a: articles[i]!.url, b: articles[j]!.url });
  return web;
}

/** The first words of the text's first sentence: the headline an aggregator writes from the lede. */
export function lede(text: string, words: number): string {
  const first = text.trim().split(/(?<=[.!?])\s+/)[0] ?? '';
  return first
    .split(/\s+/)
    .slice(0, words)
    .join(' ')
    .replace(/[,;:]$/, '');
}

interface ReprintSite {
  host: string;
  path(i: number): string;
  headline(original: string, text: string): string;
  render(title: string, paragraphs: string[], i: number, related: string): string;
}

const paragraphsWith = (paragraphs: string[], at: number, insert: string) =>
  paragraphs
    .map((p) => `<p>${escapeHtml(p)}</p>`)
    .toSpliced(Math.min(at, paragraphs.length), 0, insert)
    .join('\n');

const SITES: ReprintSite[] = [
  {
    host: 'morning-ledger.example',
    path: (i) => `news/${2026 - (i % 3)}/${1000 + i}`,
    headline: (_, text) => lede(text, 9),
    render: (
      title,
      paragraphs,
      i,
      related,
    ) => `<!doctype html><html><head><title>${escapeHtml(title)} | The Morning Ledger</title></head>
<body><div class="masthead"><a href="/">The Morning Ledger</a> <span>${stamp(i)}</span></div>
<nav class="sections"><a href="/news">News</a> <a href="/money">Money</a> <a href="/opinion">Opinion</a> <a href="/life">Life</a></nav>
<main><article class="story"><h1>${escapeHtml(title)}</h1><p class="credit">Distributed by a partner news service.</p>
${paragraphsWith(paragraphs, 2, `<p class="inline-related"><strong>Read also:</strong> <a href="/r/${i}">${escapeHtml(related)}</a></p>`)}
<p class="cta">Get the Morning Ledger newsletter: the day's five stories before breakfast.</p></article></main>
<footer>© The Morning Ledger · <a href="/about">About</a> · <a href="/ethics">Ethics policy</a></footer></body></html>`,
  },
  {
    host: 'quick-takes.example',
    path: (i) => `t/${(i * 7919).toString(36)}`,
    headline: (original) => `Report: ${halfOf(original)}`,
    render: (
      title,
      paragraphs,
      i,
      related,
    ) => `<!doctype html><html><head><title>Quick Takes - ${escapeHtml(title)}</title></head>
<body><header class="bar"><a href="/">Quick Takes</a> <a href="/trending">Trending</a> <a href="/login">Sign in</a></header>
<div class="layout"><div class="content"><h2 class="take-title">${escapeHtml(title)}</h2><div class="take-meta">${i % 50} comments · ${stamp(i + 3)}</div>
<div class="take-body">${paragraphsWith(paragraphs, 3, `<div class="promo"><p>Trending now: ${escapeHtml(related)}</p></div>`)}</div>
<p class="via">Via our content partners.</p></div>
<aside class="rail"><h3>Popular</h3><ul><li><a href="/p/1">${escapeHtml(related)}</a></li><li><a href="/p/2">Markets at a glance</a></li></ul></aside></div></body></html>`,
  },
  {
    host: 'explainer-hub.example',
    path: (i) => `explainers/${i}-what-we-know`,
    headline: (original) => `What we know about ${lastWords(original, 5)}`,
    render: (
      title,
      paragraphs,
      i,
    ) => `<!doctype html><html><head><title>${escapeHtml(title)} · Explainer Hub</title></head>
<body><nav><a href="/">Explainer Hub</a> <a href="/topics">Topics</a> <a href="/faq">FAQ</a></nav>
<article><header><h1>${escapeHtml(title)}</h1><p class="dek">The story so far, in full.</p><time>${stamp(i + 5)}</time></header>
<section class="body">${paragraphsWith(paragraphs, 1, '<p class="note">This article first appeared elsewhere and is reproduced in full.</p>')}</section>
<footer class="share">Share this explainer · Email · Print</footer></article>
<footer><p>Explainer Hub is reader-funded. <a href="/donate">Support us</a>.</p></footer></body></html>`,
  },
  {
    host: 'regional-post.example',
    path: (i) => `story.php?id=${50_000 + i * 13}`,
    headline: (original, text) => `${lastWords(original, 4)}: ${lede(text, 6)}`,
    render: (
      title,
      paragraphs,
      i,
      related,
    ) => `<!doctype html><html><head><title>Regional Post :: ${escapeHtml(title)}</title></head>
<body><table width="100%"><tr><td class="nav"><a href="/">Home</a><br><a href="/local">Local</a><br><a href="/weather">Weather</a></td>
<td class="story"><div class="kicker">Wire copy</div><h1>${escapeHtml(title)}</h1><div class="byline">Staff and wire reports · ${stamp(i + 9)}</div>
${paragraphsWith(paragraphs, 4, `<p><em>See also: ${escapeHtml(related)}</em></p>`)}
<p class="tags">Tags: news, wire, ${i % 2 ? 'world' : 'national'}</p></td></tr></table></body></html>`,
  },
  {
    host: 'digest-daily.example',
    path: (i) => `digest/${i}/`,
    headline: (original, text) => (original.split(/\s+/).length >= 6 ? original.toUpperCase() : lede(text, 12)),
    render: (
      title,
      paragraphs,
      i,
    ) => `<!doctype html><html lang="en"><head><title>${escapeHtml(title)} — Digest Daily</title></head>
<body><div id="top"><a href="/">Digest Daily</a> <form><input name="q" placeholder="Search"></form></div>
<div id="post"><h1 class="post-title">${escapeHtml(title)}</h1><div class="post-info">Posted ${stamp(i + 11)} · ${3 + (i % 9)} min read</div>
<div class="post-text">${paragraphsWith(paragraphs, 2, '<p class="ad-label">Advertisement</p>')}</div>
<p class="source-note">Source: syndicated. Digest Daily may earn a commission from links on this page.</p></div></body></html>`,
  },
];

function halfOf(text: string): string {
  const words = text.split(/\s+/);
  return words.slice(0, Math.max(3, Math.ceil(words.length / 2) + 1)).join(' ');
}

function lastWords(text: string, count: number): string {
  return text.split(/\s+/).slice(-count).join(' ');
}
