/** <base href> applies when it resolves to an http(s) URL; otherwise the page URL is the base. */
export function documentBase(baseHref: string | null, pageUrl: URL): URL {
  if (!baseHref) return pageUrl;
  try {
    const base = new URL(baseHref.trim(), pageUrl);
    return base.protocol === 'http:' || base.protocol === 'https:' ? base : pageUrl;
  } catch {
    return pageUrl;
  }
}
