import type { PageSpec } from '../model/web-model.js';
import { renderHead } from './render-head.js';
import { renderLinks } from './render-links.js';

export function renderPlainPage(page: PageSpec, main: string): string {
  return `<!DOCTYPE html>
<html lang="${page.lang ?? 'en'}">
<head>
${renderHead(page, 'Plain Site')}
</head>
<body>
<nav>
${renderLinks(page.links, 'nav')}</nav>
${main}
<footer>
${renderLinks(page.links, 'footer')}</footer>
</body>
</html>
`;
}
