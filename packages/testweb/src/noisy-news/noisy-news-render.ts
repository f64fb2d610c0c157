import { escapeHtml } from '../render/escape-html.js';
import { createRandom } from '../seeded-random.js';
import type { NoisyPage } from './noisy-news-model.js';

/**
 * What changes on every request, none of it content: a clock, counters, a rotating ad and
 * related box, and (per round, the same on every page) the weather and the "most read" list.
 */
export interface RequestNoise {
  now: Date;
  visit: number;
  round: number;
  /** Titles of other stories, for the related box and the most-read list. */
  titles: readonly string[];
}

const ADS = [
  'Switch your energy plan today and save on winter bills.',
  'Weekend sale: two coffees for the price of one at Harbor Roasters.',
  'Learn a language in ten minutes a day. Try it free.',
  'New in town? Compare moving companies near you.',
  'Subscribe now and get the print edition delivered at dawn.',
  'Ferry passes for the whole family, this month only.',
];

const stamp = (noise: RequestNoise) => noise.now.toISOString().replace('T', ' ').slice(0, 19);
const reads = (noise: RequestNoise) => (1000 + ((noise.visit * 7919) % 90_000)).toLocaleString('en-US');
const ad = (noise: RequestNoise, slot: number) => ADS[(noise.visit + slot) % ADS.length]!;

function pick(noise: RequestNoise, salt: string, count: number, perRequest: boolean): string[] {
  const random = createRandom(noise.round, salt, perRequest ? noise.visit : 0);
  return Array.from({ length: Math.min(count, noise.titles.length) }, () => random.pick(noise.titles));
}

function links(page: NoisyPage, origins: Record<'ledger' | 'wire', string>): string {
  return page.links
    .map(
      (link) =>
        `<li><a href="${escapeHtml(`${origins[link.host ?? page.host]}${link.path}`)}">${escapeHtml(link.text)}</a></li>`,
    )
    .join('\n');
}

function masthead(noise: RequestNoise): string {
  return `<header class="masthead">
<div class="brand"><a href="/">The Harbor Ledger</a></div>
<div class="edition">Edition of ${stamp(noise)} &middot; Harbor City ${8 + (noise.round % 9)}&deg;C</div>
<div class="visits">You are reader no. ${noise.visit}</div>
<nav class="sections"><a href="/">Front page</a> <a href="/section/city">City</a> <a href="/section/harbor">Harbor</a> <a href="/section/sports">Sports</a> <a href="/section/arts">Arts</a> <a href="/briefs">In brief</a></nav>
</header>`;
}

function footer(): string {
  return `<footer class="site-footer"><p>&copy; 2026 The Harbor Ledger, 4 Quay Street, Harbor City.</p><p><a href="/about">About us</a> &middot; <a href="/contact">Contact</a> &middot; <a href="/privacy">Privacy</a></p></footer>`;
}

function related(noise: RequestNoise): string {
  return `<aside class="related"><h2>Related</h2><ul>${pick(noise, 'related', 3, true)
    .map((title) => `<li><a href="/">${escapeHtml(title)}</a></li>`)
    .join('')}</ul></aside>`;
}

/**
 * The story template puts its noise inside the story container, between the paragraphs, where a
 * main-text extractor keeps it: a dateline with a clock and a read counter, a sponsored line, the
 * hour's most-read list and a comment counter.
 */
function storyBody(page: NoisyPage, paragraphs: string[], noise: RequestNoise): string {
  const body: string[] = [];
  paragraphs.forEach((paragraph, i) => {
    body.push(`<p>${escapeHtml(paragraph)}</p>`);
    if (i === 1) body.push(`<div class="promo"><p>Sponsored: ${escapeHtml(ad(noise, 0))}</p></div>`);
  });
  return `<article class="story">
<h1>${escapeHtml(page.title)}</h1>
<p class="dateline">Harbor City, updated ${stamp(noise)} UTC &middot; ${reads(noise)} reads</p>
${body.join('\n')}
<div class="most-read"><h2>Most read this hour</h2><ol>${pick(noise, 'most-read', 4, false)
    .map((title) => `<li>${escapeHtml(title)}</li>`)
    .join('')}</ol></div>
<p class="discussion">Join the discussion: ${(noise.visit * 13) % 97} comments so far</p>
</article>`;
}

export function renderNoisyPage(
  page: NoisyPage,
  paragraphs: string[],
  noise: RequestNoise,
  origins: Record<'ledger' | 'wire', string>,
): string {
  const head = `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>${escapeHtml(page.title)} | ${page.host === 'wire' ? 'Coastal Wire' : 'The Harbor Ledger'}</title>\n</head>\n`;
  const prose = paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join('\n');
  switch (page.template) {
    case 'story':
      return `${head}<body>\n${masthead(noise)}\n<div class="layout">\n<main>\n${storyBody(page, paragraphs, noise)}\n<ul class="story-links">${links(page, origins)}</ul>\n</main>\n${related(noise)}\n</div>\n${footer()}\n</body>\n</html>\n`;
    case 'print':
      return `${head}<body class="print">\n<h1>${escapeHtml(page.title)}</h1>\n<p class="dateline">Printed ${stamp(noise)} UTC</p>\n${prose}\n<p class="print-note">Printed from The Harbor Ledger.</p>\n</body>\n</html>\n`;
    case 'wire':
    case 'wire-index':
      return `${head}<body>\n<div id="page">\n<div class="wire-head"><span class="logo">Coastal Wire</span> <span class="ticker">Markets ${(noise.visit % 40) - 20} pts &middot; ${stamp(noise)}</span></div>\n<div class="wire-body">\n<h1>${escapeHtml(page.title)}</h1>\n<p class="filed">Filed ${stamp(noise)} &middot; wire item ${10_000 + noise.visit}</p>\n${prose}\n<div class="wire-ad"><p>${escapeHtml(ad(noise, 3))}</p></div>\n</div>\n<ul class="wire-links">${links(page, origins)}</ul>\n<div class="wire-foot">Coastal Wire &middot; stories from partner newsrooms</div>\n</div>\n</body>\n</html>\n`;
    default:
      return `${head}<body>\n${masthead(noise)}\n<div class="layout">\n<main>\n<h1>${escapeHtml(page.title)}</h1>\n${prose}\n<ul class="index">${links(page, origins)}</ul>\n</main>\n${related(noise)}\n</div>\n${footer()}\n</body>\n</html>\n`;
  }
}
