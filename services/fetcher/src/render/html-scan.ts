export interface HtmlScan {
  /** Visible text, whitespace collapsed (entities count as one character each). */
  text: string;
  /** Script elements holding code (JSON and template types are data), and their inline bytes. */
  scripts: number;
  scriptBytes: number;
  /** Text inside <noscript> elements. */
  noscript: string;
}

/** Elements whose content is not page text (the title is the tab's), and comments. */
const HIDDEN_OPEN = /<(script|style|noscript|template|title)\b|<!--/gi;
const TAG = /<[^>]*>?/g;
const ENTITY = /&(?:#\d+|#x[0-9a-f]+|[a-z]+);/gi;
const CODE_TYPE = /javascript|ecmascript|module/;

/**
 * One pass over an HTML document: scripts, noscript text and the visible text. Approximate by
 * design (it compares a page with itself and spots shells), and linear in the input, whatever
 * unclosed tags a hostile page holds: every search starts where the previous one ended.
 */
export function scanHtml(html: string): HtmlScan {
  const lower = html.toLowerCase();
  const visible: string[] = [];
  let scripts = 0;
  let scriptBytes = 0;
  let noscript = '';
  let position = 0;
  HIDDEN_OPEN.lastIndex = 0;
  for (let open = HIDDEN_OPEN.exec(html); open; open = HIDDEN_OPEN.exec(html)) {
    visible.push(html.slice(position, open.index));
    const tag = open[1]?.toLowerCase();
    if (!tag) {
      const end = lower.indexOf('-->', open.index + 4);
      position = end < 0 ? html.length : end + 3;
    } else {
      const startEnd = lower.indexOf('>', open.index);
      const close = startEnd < 0 ? -1 : lower.indexOf(`</${tag}`, startEnd);
      const content = startEnd < 0 ? '' : html.slice(startEnd + 1, close < 0 ? html.length : close);
      if (tag === 'script') {
        const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(html.slice(open.index, startEnd))?.[1]?.toLowerCase();
        if (!type || CODE_TYPE.test(type)) {
          scripts++;
          scriptBytes += content.length;
        }
      } else if (tag === 'noscript') noscript += ` ${content}`;
      const closeEnd = close < 0 ? -1 : lower.indexOf('>', close);
      position = closeEnd < 0 ? html.length : closeEnd + 1;
    }
    if (position >= html.length) break;
    HIDDEN_OPEN.lastIndex = position;
  }
  if (position < html.length) visible.push(html.slice(position));
  const text = visible.join(' ').replace(TAG, ' ').replace(ENTITY, '_').replace(/\s+/g, ' ').trim();
  return { text, scripts, scriptBytes, noscript };
}

const ANCHOR_OPEN = /<a(?:rea)?\b/gi;
const HREF = /\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i;

/** The href of every <a> and <area> as written (entities &amp; decoded), in one linear pass. */
export function anchorHrefs(html: string): string[] {
  const hrefs: string[] = [];
  ANCHOR_OPEN.lastIndex = 0;
  for (let open = ANCHOR_OPEN.exec(html); open; open = ANCHOR_OPEN.exec(html)) {
    const end = html.indexOf('>', open.index);
    if (end < 0) break;
    const href = HREF.exec(html.slice(open.index, end));
    if (href) hrefs.push((href[1] ?? href[2] ?? href[3] ?? '').replace(/&amp;/g, '&'));
    ANCHOR_OPEN.lastIndex = end + 1;
  }
  return hrefs;
}

const META_REFRESH =
  /<meta\b[^<>]{0,500}?http-equiv\s*=\s*["']?refresh["']?[^<>]{0,500}?content\s*=\s*["']?\s*\d*(?:\.\d*)?\s*[;,]\s*url\s*=\s*["']?([^"'<>\s]+)/i;

/** The absolute URL a <meta http-equiv="refresh"> in the first 64 KiB sends the browser to, or null. */
export function metaRefreshTarget(html: string, pageUrl: string): string | null {
  const target = META_REFRESH.exec(html.slice(0, 64 * 1024))?.[1]?.replace(/&amp;/g, '&');
  return target && URL.canParse(target, pageUrl) ? new URL(target, pageUrl).href : null;
}
