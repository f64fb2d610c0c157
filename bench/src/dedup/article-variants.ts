import { headline } from '@crawler/dedup';
import { Parser } from 'htmlparser2';
import type { CorpusPage } from '../article-corpus.js';
import type { LabeledWeb } from './near-duplicate-eval.js';

/**
 * Labeled near duplicates made from the real pages of the article-extraction benchmark (read from
 * fixtures/article-extraction-benchmark): for each page, a reprint of its article on another site in
 * that site's template, a copy with a small edit (a word fixed, an update appended or a sentence
 * corrected), and a copy with only template noise added. Negatives: the benchmark's pages
 * themselves (different articles, some on the same story), and two-sentence items, each from a
 * different article, in one site's heavy template, where the template outweighs the text; a brief
 * that is most of a very short article is a copy of it.
 */
export function articleVariants(pages: readonly CorpusPage[]): LabeledWeb {
  const web: LabeledWeb = { pages: [], groups: [], negatives: [], skipped: {}, exhaustive: true };
  const skip = (kind: string) => (web.skipped[kind] = (web.skipped[kind] ?? 0) + 1);
  pages.forEach((page, i) => {
    const original = { url: page.url, html: page.html };
    web.pages.push(original);
    const title = headline(pageTitle(page.html)) || page.truth.split(/[.!?]/)[0]!.slice(0, 80);
    const paragraphs = page.truth
      .split(/\n+/)
      .map((line) => line.trim())
      .filter(Boolean);
    const site = REPRINT_SITES[i % REPRINT_SITES.length]!;
    const reprint = {
      url: `https://${site.host}/story/${page.id.slice(0, 12)}`,
      html: site.render(title, paragraphs, i),
    };
    web.pages.push(reprint);
    web.groups.push({ kind: 'reprint-other-template', urls: [original.url, reprint.url] });
    const edited = editArticle(page, i);
    if (edited) {
      web.pages.push({ url: `${withQuery(page.url, 'edited=1')}`, html: edited.html });
      web.groups.push({ kind: `small-edit: ${edited.kind}`, urls: [original.url, withQuery(page.url, 'edited=1')] });
    } else skip('small-edit (no sentence of the gold text found verbatim in the HTML)');
    web.pages.push({ url: withQuery(page.url, 'amp=1'), html: addTemplateNoise(page.html, i) });
    web.groups.push({ kind: 'noise-only', urls: [original.url, withQuery(page.url, 'amp=1')] });
  });
  for (let i = 0; i < pages.length; i++)
    for (let j = i + 1; j < pages.length; j++)
      web.negatives.push({ kind: 'different-articles', a: pages[i]!.url, b: pages[j]!.url });
  const briefs = pages
    .slice(0, 40)
    .map((page, i) => ({ url: `https://briefs.example/item/${i + 1}`, html: briefPage(page.truth, i) }));
  web.pages.push(...briefs);
  // Two sentences of a very short article are most of it: that brief is a copy of the article.
  briefs.forEach((brief, i) => {
    if (briefItem(pages[i]!.truth).length > pages[i]!.truth.length / 2)
      web.groups.push({ kind: 'brief: most of its article', urls: [pages[i]!.url, brief.url] });
  });
  for (let i = 0; i + 1 < briefs.length; i++)
    web.negatives.push({ kind: 'short-items-same-template', a: briefs[i]!.url, b: briefs[i + 1]!.url });
  return web;
}

function withQuery(url: string, query: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}${query}`;
}

/** The page's first <title> as text, entities decoded: the reprint templates escape it again. */
export function pageTitle(html: string): string {
  let state: 'before' | 'inside' | 'done' = 'before';
  let title = '';
  const parser = new Parser(
    {
      onopentag: (name) => void (state === 'before' && name === 'title' && (state = 'inside')),
      ontext: (text) => void (state === 'inside' && (title += text)),
      onclosetag: (name) => void (state === 'inside' && name === 'title' && (state = 'done')),
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return title.trim();
}

/** Text made safe inside HTML elements and attributes' quotes. */
export const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const ADS = [
  'Save 20% on your first order today.',
  'Stream the whole season, free for a month.',
  'Compare car insurance in two minutes.',
  'Hotels near you, from $59 a night.',
];
/** A date and time that differs from page to page: a template's per-page noise. */
export const stamp = (i: number) => `2026-0${1 + (i % 9)}-1${i % 10} ${10 + (i % 12)}:${10 + (i % 50)}`;

interface ReprintSite {
  host: string;
  render(title: string, paragraphs: string[], i: number): string;
}

/** Four reprinting sites, each with its own markup, chrome and per-page noise. */
const REPRINT_SITES: ReprintSite[] = [
  {
    host: 'wire-daily.example',
    render: (
      title,
      paragraphs,
      i,
    ) => `<!doctype html><html><head><title>${escapeHtml(title)} | Wire Daily</title></head><body>
<header><nav><a href="/">Home</a> <a href="/world">World</a> <a href="/business">Business</a> <a href="/tech">Tech</a> <a href="/sport">Sport</a></nav><div class="stamp">Updated ${stamp(i)}</div></header>
<div class="main"><h1>${escapeHtml(title)}</h1><p class="byline">Wire Daily staff · ${100 + i} shares</p>
<p class="credit">This story was first published by a partner newsroom and is republished with permission.</p>
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}</div>
<aside class="popular"><h2>Most popular</h2><ol><li><a href="/a">Markets close higher on tech rally</a></li><li><a href="/b">Storm warning for the coast</a></li><li><a href="/c">Council approves new budget</a></li></ol></aside>
<footer><p>© 2026 Wire Daily · <a href="/terms">Terms</a> · <a href="/privacy">Privacy</a></p></footer></body></html>`,
  },
  {
    host: 'notes-blog.example',
    render: (
      title,
      paragraphs,
      i,
    ) => `<!doctype html><html><head><title>${escapeHtml(title)} — Notes</title></head><body class="post">
<div id="site"><div class="site-title"><a href="/">Notes</a> <span class="tagline">things worth reading again</span></div>
<article><header><h1 class="entry-title">${escapeHtml(title)}</h1><time>${stamp(i)}</time></header>
<div class="entry-content"><p><em>Reposted from the original article.</em></p>${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}</div>
<div class="share">Share: <a href="#">Twitter</a> <a href="#">Facebook</a> <a href="#">Email</a></div><p class="comments">${i % 40} comments</p></article>
<div class="widget"><h3>Archives</h3><ul><li><a href="/2025/">2025</a></li><li><a href="/2024/">2024</a></li></ul></div></div></body></html>`,
  },
  {
    host: 'city-portal.example',
    render: (
      title,
      paragraphs,
      i,
    ) => `<!doctype html><html><head><title>City Portal: ${escapeHtml(title)}</title></head><body>
<table class="layout"><tr><td class="left"><ul class="menu"><li><a href="/">Portal</a></li><li><a href="/news">News</a></li><li><a href="/events">Events</a></li><li><a href="/weather">Weather ${i % 30}°</a></li></ul></td>
<td class="center"><div id="content"><h2>${escapeHtml(title)}</h2><div class="story-body">${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}</div>
<div class="ad">${escapeHtml(ADS[i % ADS.length]!)}</div><p class="source">Source: syndicated content.</p></div></td>
<td class="right"><div class="box"><p>The City Portal brings you the news, events and services of your city in one place, every day of the year.</p></div><div class="visits">Visitors today: ${1000 + i * 7}</div></td></tr></table></body></html>`,
  },
  {
    host: 'feed-reader.example',
    render: (
      title,
      paragraphs,
      i,
    ) => `<!doctype html><html lang="en"><head><title>${escapeHtml(title)} · FeedReader</title></head><body>
<div class="top"><a href="/">FeedReader</a> <input placeholder="Search"> <a href="/login">Log in</a></div>
<section class="feed-item"><h1>${escapeHtml(title)}</h1><div class="meta">Fetched ${stamp(i)} · ${i * 3 + 1} readers</div>
<div class="text">${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}</div>
<p class="origin">Originally published elsewhere; shown here in full for our subscribers.</p></section>
<div class="related"><h2>You may also like</h2><a href="/x">Ten tips for better sleep</a> <a href="/y">Why prices keep rising</a></div></body></html>`,
  },
];

const UPDATE = ' Update: The company said on Friday that it would respond to the report in detail next week.';
const CORRECTION = 'An earlier version of this article misstated the date of the meeting, which was held on Tuesday.';

/** One edit inside the article: a word fixed, an update appended, or (in long articles) a sentence corrected. */
function editArticle(page: CorpusPage, i: number): { html: string; kind: string } | null {
  const sentences = page.truth
    .split(/(?<=[.!?])\s+/)
    .filter((sentence) => sentence.length >= 40 && sentence.length <= 400);
  const found = sentences.filter((sentence) => page.html.includes(sentence));
  if (found.length === 0) return null;
  const target = found[Math.floor(found.length / 2)]!;
  const kind =
    i % 3 === 2 && page.truth.split(/(?<=[.!?])\s+/).length >= 12
      ? 'sentence corrected'
      : i % 3 === 1
        ? 'update appended'
        : 'word fixed';
  if (kind === 'update appended') return { html: page.html.replace(found.at(-1)!, `${found.at(-1)!}${UPDATE}`), kind };
  if (kind === 'sentence corrected') return { html: page.html.replace(target, CORRECTION), kind };
  const words = target.split(' ');
  const at = words.findIndex((word) => /^[a-z]{5,}$/.test(word));
  if (at < 0) return { html: page.html.replace(found.at(-1)!, `${found.at(-1)!}${UPDATE}`), kind: 'update appended' };
  words[at] = `${words[at]!.slice(0, -1)}${words[at]!.at(-2)}${words[at]!.at(-1)}`;
  return { html: page.html.replace(target, words.join(' ')), kind };
}

/** A ticker with a clock and a counter at the top, a rotating ad at the bottom: nothing in the article changes. */
function addTemplateNoise(html: string, i: number): string {
  const top = `<div class="ticker">Updated ${stamp(i + 7)} · ${2000 + i * 13} readers online</div>`;
  const bottom = `<aside class="promo"><p>${escapeHtml(ADS[(i + 1) % ADS.length]!)}</p></aside>`;
  const withTop = /<body[^>]*>/i.test(html) ? html.replace(/<body[^>]*>/i, (tag) => `${tag}${top}`) : `${top}${html}`;
  return /<\/body>/i.test(withTop) ? withTop.replace(/<\/body>/i, `${bottom}</body>`) : `${withTop}${bottom}`;
}

function briefItem(truth: string): string {
  return truth
    .split(/(?<=[.!?])\s+/)
    .slice(0, 2)
    .join(' ');
}

/** A short item (two sentences of one article) in a template with a long "about" box and menus. */
function briefPage(truth: string, i: number): string {
  const item = briefItem(truth);
  return `<!doctype html><html><head><title>In brief ${i + 1} | Harbor Briefs</title></head><body>
<nav><a href="/">Home</a> <a href="/briefs">Briefs</a> <a href="/about">About</a> <a href="/contact">Contact</a></nav>
<div class="item"><h1>In brief ${i + 1}</h1><p>${escapeHtml(item)}</p><p class="posted">Posted ${stamp(i)}</p></div>
<div class="about"><h2>About Harbor Briefs</h2><p>Harbor Briefs collects the short news of the day from the harbor, the city and the islands, written by our small team of editors and checked twice before it goes out.</p><p>We publish every weekday morning and every evening, and we correct our mistakes in the open: a note under the item says what changed and when.</p></div>
<footer><p>© 2026 Harbor Briefs · <a href="/privacy">Privacy</a></p></footer></body></html>`;
}
