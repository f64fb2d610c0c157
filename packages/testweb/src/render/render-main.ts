import type { PageSpec } from '../model/web-model.js';
import { escapeHtml } from './escape-html.js';
import { renderLinks } from './render-links.js';

/** The <main> element: the page's main content, which is all that "changed" and dedup truth look at. */
export function renderMain(page: PageSpec, edition: number, upperCase = false): string {
  const paragraphs = page.content
    .paragraphs(edition)
    .map((p) => `<p>${escapeHtml(p)}</p>`)
    .join('\n');
  return `<main>\n<h1>${escapeHtml(page.title)}</h1>\n${paragraphs}\n${renderLinks(page.links, 'main', upperCase)}</main>`;
}
