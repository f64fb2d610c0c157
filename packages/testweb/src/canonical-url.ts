/**
 * Resolves a link the way a browser does and returns its canonical form: WHATWG href with the
 * fragment dropped (host lowercased, default port dropped, dot-segments resolved by the parser).
 * Returns undefined for anything that is not http(s) or does not parse.
 */
export function canonicalizeUrl(reference: string, base?: string): string | undefined {
  let url: URL;
  try {
    url = new URL(reference, base);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  url.hash = '';
  return url.href;
}
