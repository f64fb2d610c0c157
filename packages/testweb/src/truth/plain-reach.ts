import { canonicalizeUrl } from '../canonical-url.js';
import { findResource, type WebModel } from '../model/web-model.js';
import type { RobotsPolicy } from '../robots-policy.js';
import { outgoingUrls } from './outgoing-urls.js';

/**
 * The pages a crawler that never runs scripts reaches: HTML links, meta refresh and HTTP
 * redirects only, robots.txt obeyed, depth ignored (every render-profile page is a few hops
 * from a seed). A script-redirect page is an ordinary page to such a crawler.
 */
export function pagesWithoutScripts(web: WebModel, policyOf: (origin: string) => RobotsPolicy): Set<string> {
  const hosts = new Map(web.hosts.map((host) => [host.origin, host]));
  const pages = new Set<string>();
  const seen = new Set<string>(web.seeds);
  const queue = [...web.seeds];
  const discover = (url: string | undefined) => {
    if (url !== undefined && !seen.has(url)) {
      seen.add(url);
      queue.push(url);
    }
  };
  while (queue.length > 0) {
    const url = queue.shift()!;
    const parsed = new URL(url);
    const host = hosts.get(parsed.origin);
    const pathAndQuery = `${parsed.pathname}${parsed.search}`;
    if (!host || !policyOf(host.origin).isAllowed(pathAndQuery)) continue;
    const resource = findResource(host, pathAndQuery);
    if (resource?.kind === 'redirect') discover(canonicalizeUrl(resource.location, url));
    if (resource?.kind !== 'page' && resource?.kind !== 'slow' && resource?.kind !== 'flaky') continue;
    if (resource.page.trap) continue;
    pages.add(url);
    for (const target of outgoingUrls(url, resource.page)) discover(target);
    if (resource.page.metaRefresh) discover(canonicalizeUrl(resource.page.metaRefresh.href, url));
  }
  return pages;
}
