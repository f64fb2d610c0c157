import type { Link, LinkPlacement } from '../model/web-model.js';
import { escapeHtml } from './escape-html.js';

/** Renders the links of one placement: anchors as a list, iframes inline, areas inside an image map. */
export function renderLinks(links: readonly Link[], placement: LinkPlacement, upperCase = false): string {
  const chosen = links.filter((l) => l.placement === placement);
  const anchors = chosen.filter((l) => l.kind === 'a');
  const areas = chosen.filter((l) => l.kind === 'area');
  const iframes = chosen.filter((l) => l.kind === 'iframe');
  let html = '';
  if (anchors.length > 0) {
    const items = anchors.map((l) =>
      upperCase
        ? `<LI><A HREF="${escapeHtml(l.href)}">${escapeHtml(l.text)}</A>`
        : `<li><a href="${escapeHtml(l.href)}">${escapeHtml(l.text)}</a></li>`,
    );
    html += upperCase ? `<UL>\n${items.join('\n')}\n</UL>\n` : `<ul class="links">\n${items.join('\n')}\n</ul>\n`;
  }
  for (const l of iframes) {
    html += `<iframe src="${escapeHtml(l.href)}" title="${escapeHtml(l.text)}" width="600" height="200"></iframe>\n`;
  }
  if (areas.length > 0) {
    const shapes = areas.map(
      (l, i) =>
        `<area shape="rect" coords="${i * 100},0,${i * 100 + 99},99" href="${escapeHtml(l.href)}" alt="${escapeHtml(l.text)}">`,
    );
    html += `<img src="/images/sitemap.gif" usemap="#site" alt="Site map" width="${areas.length * 100}" height="100">\n<map name="site">\n${shapes.join('\n')}\n</map>\n`;
  }
  return html;
}
