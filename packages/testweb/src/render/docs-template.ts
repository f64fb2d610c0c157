import type { PageSpec } from '../model/web-model.js';
import { renderHead } from './render-head.js';
import { renderLinks } from './render-links.js';

// Nothing host-specific appears here, so the same docs page is byte-identical on every host serving it.
export function renderDocsPage(page: PageSpec, main: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
${renderHead(page, 'Lantern Manual')}
</head>
<body class="docs">
<nav class="toc">
${renderLinks(page.links, 'nav')}</nav>
${main}
<footer>
${renderLinks(page.links, 'footer')}<p>Lantern Manual, licensed CC BY 4.0.</p>
</footer>
</body>
</html>
`;
}
