import type { PageSpec } from '../model/web-model.js';
import { escapeHtml } from './escape-html.js';
import type { Noise } from './noise.js';
import { renderHead } from './render-head.js';
import { renderLinks } from './render-links.js';

export function renderNewsPage(page: PageSpec, main: string, noise: Noise): string {
  const related = noise.related
    .map((r) => `<li><a href="${escapeHtml(r.href)}">${escapeHtml(r.text)}</a></li>`)
    .join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
${renderHead(page, 'The Daily Ledger')}
<meta name="viewport" content="width=device-width, initial-scale=1">
</head>
<body class="news">
<header class="masthead">
<div class="brand">The Daily Ledger</div>
<div class="stamp">Updated ${noise.timestamp}</div>
<div class="visits">You are visitor no. ${noise.visit}</div>
<nav class="sections">
${renderLinks(page.links, 'nav')}</nav>
</header>
<aside class="ad"><p>Advertisement</p><p>${escapeHtml(noise.ad)}</p></aside>
${main}
<aside class="related"><h2>Related articles</h2>
<ul>
${related}
</ul></aside>
<footer>
${renderLinks(page.links, 'footer')}<p>&copy; 2026 The Daily Ledger. All rights reserved.</p>
</footer>
${page.decoyMarkup ?? ''}
</body>
</html>
`;
}
