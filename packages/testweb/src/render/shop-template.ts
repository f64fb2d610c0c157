import type { PageSpec } from '../model/web-model.js';
import { escapeHtml } from './escape-html.js';
import type { Noise } from './noise.js';
import { renderHead } from './render-head.js';
import { renderLinks } from './render-links.js';

export function renderShopPage(page: PageSpec, main: string, noise: Noise): string {
  const recent = noise.related
    .map((r) => `<li><a href="${escapeHtml(r.href)}">${escapeHtml(r.text)}</a></li>`)
    .join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
${renderHead(page, 'Tinker & Co. Hardware')}
</head>
<body>
<div id="top-bar"><span>Tinker &amp; Co. Hardware</span> <span class="live">${(noise.visit % 17) + 2} people are looking at this right now</span> <span class="clock">${noise.timestamp}</span></div>
<div id="menu">
${renderLinks(page.links, 'nav')}</div>
<div id="promo">${escapeHtml(noise.ad)}</div>
<div id="content">
${main}
</div>
<div id="recently-viewed"><h3>Recently viewed</h3>
<ul>
${recent}
</ul></div>
<div id="footer">
${renderLinks(page.links, 'footer')}<small>Prices include VAT. Session ${noise.visit.toString(36)}</small>
</div>
${page.decoyMarkup ?? ''}
</body>
</html>
`;
}
