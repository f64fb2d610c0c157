import type { PageSpec } from '../model/web-model.js';
import { renderHead } from './render-head.js';
import { renderLinks } from './render-links.js';

export function renderBlogPage(page: PageSpec, main: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
${renderHead(page, 'Field Notes')}
<meta name="generator" content="hand-rolled static site">
</head>
<body>
<header>
<p class="site-title">Field Notes &mdash; a weblog about small things</p>
<nav>
${renderLinks(page.links, 'nav')}</nav>
</header>
${main}
<footer>
${renderLinks(page.links, 'footer')}<p>Written with care. Comments are closed.</p>
</footer>
${page.decoyMarkup ?? ''}
</body>
</html>
`;
}
