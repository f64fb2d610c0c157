import { headline } from '@crawler/dedup';
import { escapeHtml, pageTitle, stamp } from './article-variants.js';
import type { LabeledWeb } from './near-duplicate-eval.js';
import type { CorpusPage } from '../article-corpus.js';
import { lede } from './reprints-own-headline.js';

/** Items made: each on two of the four sites, about sixty items a site. */
const ITEMS = 120;

/**
 * Short items (the first two or three sentences of a benchmark article, 25 to 75 words) on four
 * brief sites whose templates outweigh them inside the story container: an "about" box, a
 * newsletter call, a corrections policy, share lines. Each item is on two sites under its headline
 * (each site adds its name to the title): the same item in two templates. Every other pair is a
 * negative, among them every two different items in one template.
 */
export function shortItemsInTemplates(articles: readonly CorpusPage[]): LabeledWeb {
  const web: LabeledWeb = { pages: [], groups: [], negatives: [], skipped: {}, exhaustive: true };
  const bySite = new Map<number, string[]>();
  let made = 0;
  for (const [i, article] of articles.entries()) {
    if (made === ITEMS) break;
    const item = shortItem(article.truth);
    if (!item) {
      web.skipped['article without two or three sentences of 25 to 75 words'] =
        (web.skipped['article without two or three sentences of 25 to 75 words'] ?? 0) + 1;
      continue;
    }
    const title = headline(pageTitle(article.html)) || lede(article.truth, 10);
    const first = made % SITES.length;
    const second = (first + 1 + (Math.floor(made / SITES.length) % (SITES.length - 1))) % SITES.length;
    const urls = [first, second].map((s) => {
      const site = SITES[s]!;
      const url = `https://${site.host}/${site.path(made)}`;
      web.pages.push({ url, html: site.render(title, item, made + i) });
      bySite.set(s, [...(bySite.get(s) ?? []), url]);
      return url;
    });
    web.groups.push({ kind: 'same short item, two templates', urls });
    made++;
  }
  for (const urls of bySite.values())
    for (let a = 0; a < urls.length; a++)
      for (let b = a + 1; b < urls.length; b++)
        web.negatives.push({ kind: 'different short items, one template', a: urls[a]!, b: urls[b]! });
  return web;
}

/** The first two or three sentences when they make 25 to 75 words: a brief. */
function shortItem(text: string): string[] | null {
  const sentences = text
    .trim()
    .split(/(?<=[.!?])\s+/)
    .filter((sentence) => sentence.length > 0);
  for (const count of [2, 3]) {
    const words = sentences.slice(0, count).join(' ').split(/\s+/).length;
    if (sentences.length >= count && words >= 25 && words <= 75) return sentences.slice(0, count);
  }
  return null;
}

interface BriefSite {
  host: string;
  path(item: number): string;
  render(title: string, item: string[], i: number): string;
}

const para = (sentences: string[]) => `<p>${escapeHtml(sentences.join(' '))}</p>`;

const SITES: BriefSite[] = [
  {
    host: 'harbor-briefs.example',
    path: (item) => `briefs/${item + 1}`,
    render: (
      title,
      item,
      i,
    ) => `<!doctype html><html><head><title>${escapeHtml(title)} | Harbor Briefs</title></head><body>
<nav><a href="/">Home</a> <a href="/briefs">Briefs</a> <a href="/about">About</a></nav>
<article class="brief"><h1>${escapeHtml(title)}</h1><p class="posted">Posted ${stamp(i)}</p>${para(item)}
<p class="share">Share this brief with a friend by email, or print it for the notice board.</p>
<div class="about"><h2>About Harbor Briefs</h2><p>Harbor Briefs collects the short news of the day from the harbor, the city and the islands, written by our small team of editors and checked twice before it goes out to our readers.</p>
<p>We publish every weekday morning and every evening, and we correct our mistakes in the open: a note under each item says what changed and when it changed.</p></div>
<p class="newsletter">Sign up for the evening newsletter and get every brief of the day in one email, free of charge, with no advertising.</p></article>
<footer>© 2026 Harbor Briefs</footer></body></html>`,
  },
  {
    host: 'newswire-lite.example',
    path: (item) => `item?n=${9000 + item * 3}`,
    render: (
      title,
      item,
      i,
    ) => `<!doctype html><html><head><title>Newswire Lite: ${escapeHtml(title)}</title></head><body>
<div class="top"><a href="/">Newswire Lite</a> · <a href="/latest">Latest</a> · <a href="/help">Help</a></div>
<div id="content"><div class="item"><h2>${escapeHtml(title)}</h2>${para(item)}<div class="meta">Filed ${stamp(i + 4)} · ${i % 17} notes</div></div>
<div class="policy"><p>Newswire Lite items are short by design: each one is written from a longer report, and the full report is linked when we are allowed to link it.</p>
<p>Our corrections policy: when we get something wrong, we fix the item and say so at the bottom of the item, with the date and time of the correction.</p>
<p>Readers can send tips and corrections to the desk at any hour; the desk is staffed around the clock on weekdays and from eight to eight at weekends.</p></div></div>
</body></html>`,
  },
  {
    host: 'island-times.example',
    path: (item) => `${2026}/${1 + (item % 12)}/${item}-brief.html`,
    render: (
      title,
      item,
      i,
    ) => `<!doctype html><html><head><title>${escapeHtml(title)} — The Island Times</title></head><body>
<header><h1 class="site"><a href="/">The Island Times</a></h1><p class="tagline">Independent news for the islands since 1921</p></header>
<main><div class="story"><h2 class="headline">${escapeHtml(title)}</h2><div class="dateline">${stamp(i + 2)}</div>${para(item)}
<div class="support"><p>The Island Times is independent and owned by its readers. Every story we publish is free to read, and we keep it that way thanks to the support of our members.</p>
<p>Become a member today: members get the weekend edition delivered to their door, invitations to our public meetings and a say in what we cover next year.</p></div>
<p class="share-line">Share on social media · Copy link · Send by email</p></div></main>
<footer><p>The Island Times · Harbour Road 12 · Letters to the editor welcome</p></footer></body></html>`,
  },
  {
    host: 'city-notes.example',
    path: (item) => `notes/${(item * 104729).toString(36)}`,
    render: (
      title,
      item,
      i,
    ) => `<!doctype html><html><head><title>City Notes · ${escapeHtml(title)}</title></head><body>
<div class="wrap"><div class="main"><article><header><h1>${escapeHtml(title)}</h1><span class="when">${stamp(i + 6)}</span></header>
<div class="entry">${para(item)}</div>
<div class="entry-footer"><p>City Notes is a free daily digest of what happened in the city council, the courts and the neighbourhoods, compiled from public records and from reports by our partners.</p>
<p>Want City Notes in your inbox? Subscribe to the morning digest, unsubscribe at any time with one click, and we will never share your address with anyone.</p>
<p>Spotted a mistake? Write to the editors; every correction is logged in our public corrections register.</p></div></article></div>
<div class="sidebar"><h3>Sections</h3><a href="/council">Council</a> <a href="/courts">Courts</a> <a href="/neighbourhoods">Neighbourhoods</a></div></div></body></html>`,
  },
];
