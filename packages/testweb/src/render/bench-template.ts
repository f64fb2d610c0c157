import type { PageSpec } from '../model/web-model.js';
import { escapeHtml } from './escape-html.js';

// Deliberately bare: bench pages measure fetch throughput, not parsing of realistic markup.
export function renderBenchPage(page: PageSpec, main: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(page.title)}</title>
</head>
<body>
${main}
</body>
</html>
`;
}
