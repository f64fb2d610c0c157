import type { PageSpec } from '../model/web-model.js';
import { escapeHtml } from './escape-html.js';

/** Head elements shared by all templates; a meta charset must come first (within 1024 bytes). */
export function renderHead(page: PageSpec, siteTitle: string): string {
  const parts: string[] = [];
  if (!page.charset) parts.push('<meta charset="utf-8">');
  else if (page.charset.declared === 'meta') parts.push(metaCharset(page.charset.name));
  parts.push(`<title>${escapeHtml(page.title)} | ${escapeHtml(siteTitle)}</title>`);
  if (page.baseHref !== undefined) parts.push(`<base href="${escapeHtml(page.baseHref)}">`);
  if (page.metaRefresh) parts.push(`<meta http-equiv="refresh" content="0; url=${escapeHtml(page.metaRefresh.href)}">`);
  if (page.canonical !== undefined) parts.push(`<link rel="canonical" href="${escapeHtml(page.canonical)}">`);
  return parts.join('\n');
}

// Both spellings occur in the wild; the older http-equiv form is typical of legacy CJK sites.
function metaCharset(name: string): string {
  return name === 'big5' || name === 'shift_jis'
    ? `<meta http-equiv="Content-Type" content="text/html; charset=${name === 'big5' ? 'Big5' : 'Shift_JIS'}">`
    : `<meta charset="${name}">`;
}
