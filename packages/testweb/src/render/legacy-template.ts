import type { Link, PageSpec } from '../model/web-model.js';
import { escapeHtml } from './escape-html.js';
import { renderHead } from './render-head.js';
import { renderLinks } from './render-links.js';

/** Late-1990s markup: upper-case tags, layout tables, framesets, and one page of tag soup. */
export function renderLegacyPage(page: PageSpec, main: string, edition: number): string {
  if (page.layout === 'frameset') return renderFrameset(page);
  if (page.layout === 'broken') return renderTagSoup(page, edition);
  return `<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">
<HTML${page.lang ? ` LANG="${page.lang}"` : ''}>
<HEAD>
${renderHead(page, 'Home Page of the Regional Rail Society')}
</HEAD>
<BODY BGCOLOR="#FFFFEE" TEXT="#000000">
<TABLE WIDTH="100%" BORDER="0"><TR><TD VALIGN="top" WIDTH="150">
${renderLinks(page.links, 'nav', true)}</TD><TD VALIGN="top">
${main}
</TD></TR></TABLE>
<HR>
${renderLinks(page.links, 'footer', true)}<FONT SIZE="1">Best viewed with any browser at 800x600.</FONT>
</BODY>
</HTML>
`;
}

function renderFrameset(page: PageSpec): string {
  const frames = page.links
    .filter((l) => l.kind === 'frame')
    .map((l, i) => `<FRAME SRC="${escapeHtml(l.href)}" NAME="f${i}">`)
    .join('\n');
  return `<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Frameset//EN">
<HTML>
<HEAD>
${renderHead(page, 'Home Page of the Regional Rail Society')}
</HEAD>
<FRAMESET COLS="180,*">
${frames}
<NOFRAMES><BODY>This site uses frames.</BODY></NOFRAMES>
</FRAMESET>
</HTML>
`;
}

// Unclosed <p>, <b>, <td> and <a>, mis-nested inline tags and three attribute quoting styles.
function renderTagSoup(page: PageSpec, edition: number): string {
  const quoteStyles = [(h: string) => h, (h: string) => `'${h}'`, (h: string) => `"${h}"`];
  const anchors = page.links
    .filter((l: Link) => l.kind === 'a')
    .map((l, i) => `<td><A href=${quoteStyles[i % 3]!(escapeHtml(l.href))}>${escapeHtml(l.text)}\n`)
    .join('<tr>');
  const paragraphs = page.content
    .paragraphs(edition)
    .map((p, i) => (i % 2 === 0 ? `<p>${escapeHtml(p)}` : `<P><b>${escapeHtml(p)} <i>see below</b></i>`))
    .join('\n');
  return `<HTML>
<HEAD>
${renderHead(page, 'Home Page of the Regional Rail Society')}
<BODY BGCOLOR=#FFFFEE>
<main>
<h1>${escapeHtml(page.title)}
${paragraphs}
<table border=1>
<tr>${anchors}
</table>
</main>
<center><font face=Arial size=2>Last updated: some time ago
</BODY>
`;
}
