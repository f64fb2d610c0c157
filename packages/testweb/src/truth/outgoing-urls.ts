import { canonicalizeUrl } from '../canonical-url.js';
import type { PageSpec } from '../model/web-model.js';

/** The canonical URLs a page links to, resolved against its <base href> when it has one. */
export function outgoingUrls(url: string, page: PageSpec): string[] {
  const base = page.baseHref === undefined ? url : (canonicalizeUrl(page.baseHref, url) ?? url);
  const targets: string[] = [];
  for (const link of page.links) {
    const target = canonicalizeUrl(link.href, base);
    if (target) targets.push(target);
  }
  return targets;
}
