import type { PageSpec } from '../model/web-model.js';
import { escapeHtml } from './escape-html.js';

/** A single-page app's shell: an empty root, a script and a noscript plea; the script builds everything else. */
export function renderAppShell(page: PageSpec): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(page.title)} | Atlas App</title>
<link rel="stylesheet" href="/static/site.css">
<script src="/static/app.js" defer></script>
</head>
<body>
<div id="app"></div>
<noscript>You need to enable JavaScript to run this app.</noscript>
</body>
</html>
`;
}
