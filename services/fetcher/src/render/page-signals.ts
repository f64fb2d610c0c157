import { anchorHrefs, scanHtml } from './html-scan.js';

export interface PageSignals {
  /** Absolute http(s) URLs of <a href> and <area href>, without fragments. */
  links: Set<string>;
  textChars: number;
}

/** What rendering may change on a page: its links and the amount of visible text. */
export function pageSignals(html: string, pageUrl: string): PageSignals {
  const links = new Set<string>();
  for (const href of anchorHrefs(html)) {
    if (!URL.canParse(href, pageUrl)) continue;
    const url = new URL(href, pageUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    url.hash = '';
    links.add(url.href);
  }
  return { links, textChars: scanHtml(html).text.length };
}

/** Text growth that counts as new content: a fifth more and at least a short paragraph. */
const TEXT_GAIN_RATIO = 1.2;
const TEXT_GAIN_CHARS = 100;

/** Whether rendering showed something the plain page did not: a new link, or clearly more text. */
export function renderingChanged(plain: PageSignals, rendered: PageSignals): boolean {
  for (const link of rendered.links) if (!plain.links.has(link)) return true;
  return rendered.textChars > plain.textChars * TEXT_GAIN_RATIO + TEXT_GAIN_CHARS;
}
