/**
 * URL canonicalization. Rules, applied in order (documented in docs/URLS.md):
 *  1. WHATWG parsing against the base: lowercases scheme and host, IDN to punycode, drops default
 *     ports, resolves dot segments; a trailing dot on the host is dropped.
 *  2. Only http and https are crawlable; anything else is rejected.
 *  3. The fragment, empty or not, is dropped.
 *  4. Percent-encoding is normalized: escapes of unreserved characters are decoded, hex is uppercased.
 *  5. Session ids (;jsessionid=… path parameters and session query parameters) are removed.
 *  6. Tracking parameters (utm_*, gclid, fbclid, …) are removed.
 *  7. Optionally, query parameters are sorted by name (stable for equal names).
 *  8. An empty query ("?") is dropped.
 */

export interface CanonicalizeOptions {
  removeTrackingParams: boolean;
  removeSessionIds: boolean;
  sortQuery: boolean;
  maxLength: number;
  /** Query parameter names (lowercase) removed on top of the built-in tracking list. */
  extraTrackingParams?: readonly string[];
  /** Query parameter names (lowercase) removed on top of the built-in session list. */
  extraSessionParams?: readonly string[];
}

export const defaultCanonicalizeOptions: CanonicalizeOptions = Object.freeze({
  removeTrackingParams: true,
  removeSessionIds: true,
  sortQuery: false,
  maxLength: 2048,
});

/** Built-in tracking parameters, besides every `utm_*` name (docs/URLS.md rule 6). */
export const TRACKING_PARAMS: ReadonlySet<string> = new Set([
  'gclid',
  'gclsrc',
  'dclid',
  'fbclid',
  'msclkid',
  'yclid',
  'mc_cid',
  'mc_eid',
  '_ga',
  '_gl',
  'igshid',
  'twclid',
  'wbraid',
  'gbraid',
  'ref_src',
  'ttclid',
  'li_fat_id',
  'srsltid',
  '_hsenc',
  '_hsmi',
  'mkt_tok',
  's_cid',
  '_openstat',
  'oly_anon_id',
  'oly_enc_id',
  'vero_id',
  'rb_clickid',
]);
/** Built-in session id parameters (docs/URLS.md rule 5). */
export const SESSION_PARAMS: ReadonlySet<string> = new Set([
  'jsessionid',
  'phpsessid',
  'sid',
  'sessionid',
  'session_id',
  'aspsessionid',
  'cfid',
  'cftoken',
]);
const SESSION_PATH_PARAM = /;(?:jsessionid|phpsessid|sid|sessionid)=[^/?#]*/gi;
const PERCENT_ESCAPE = /%([0-9a-fA-F]{2})/g;

export type CanonicalizeResult =
  { ok: true; url: string; parsed: URL } | { ok: false; reason: 'invalid' | 'scheme' | 'too-long' };

export function canonicalize(
  input: string,
  base?: string | URL,
  options: CanonicalizeOptions = defaultCanonicalizeOptions,
): CanonicalizeResult {
  let url: URL;
  try {
    url = new URL(input.trim(), base);
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: 'scheme' };
  if (!url.hostname) return { ok: false, reason: 'invalid' };
  // Each URL setter re-serializes the whole URL, so only what needs changing is set.
  // An empty fragment (`href="#"`, `page.html#`) reads as '' in url.hash but stays in href.
  if (url.hash || url.href.endsWith('#')) url.hash = '';
  if (url.username) url.username = '';
  if (url.password) url.password = '';
  if (url.hostname.endsWith('.')) url.hostname = url.hostname.replace(/\.+$/, '');
  if (!url.hostname) return { ok: false, reason: 'invalid' };

  let path = url.pathname;
  if (options.removeSessionIds && path.includes(';')) path = path.replace(SESSION_PATH_PARAM, '');
  const normalizedPath = normalizePercentEncoding(path);
  if (normalizedPath !== url.pathname) url.pathname = normalizedPath;

  if (url.search.length > 1) {
    const query = canonicalQuery(url.search.slice(1), options);
    if (query !== url.search) url.search = query;
  } else if (url.search === '?' || url.href.endsWith('?')) {
    url.search = '';
  }
  const href = url.href.endsWith('?') ? url.href.slice(0, -1) : url.href;
  if (href.length > options.maxLength) return { ok: false, reason: 'too-long' };
  return { ok: true, url: href, parsed: url };
}

/** Convenience: the canonical form or null. */
export function canonicalUrl(input: string, base?: string | URL, options?: CanonicalizeOptions): string | null {
  const result = canonicalize(input, base, options);
  return result.ok ? result.url : null;
}

function canonicalQuery(query: string, options: CanonicalizeOptions): string {
  let pairs = query.split('&').filter((pair) => pair.length > 0);
  if (options.removeTrackingParams || options.removeSessionIds) {
    const extraTracking = options.extraTrackingParams ?? [];
    const extraSession = options.extraSessionParams ?? [];
    pairs = pairs.filter((pair) => {
      const name = decodeName(pair);
      if (
        options.removeTrackingParams &&
        (name.startsWith('utm_') || TRACKING_PARAMS.has(name) || extraTracking.includes(name))
      )
        return false;
      if (options.removeSessionIds && (SESSION_PARAMS.has(name) || extraSession.includes(name))) return false;
      return true;
    });
  }
  pairs = pairs.map(normalizePercentEncoding);
  if (options.sortQuery)
    pairs = pairs
      .map((pair, i) => ({ pair, i, name: pair.split('=')[0]! }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.i - b.i))
      .map((x) => x.pair);
  return pairs.length > 0 ? `?${pairs.join('&')}` : '';
}

function decodeName(pair: string): string {
  const raw = pair.split('=', 1)[0]!;
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

/** Decodes escapes of unreserved characters (RFC 3986 2.3) and uppercases the hex of the rest. */
export function normalizePercentEncoding(text: string): string {
  if (!text.includes('%')) return text;
  return text.replace(PERCENT_ESCAPE, (_, hex: string) => {
    const code = Number.parseInt(hex, 16);
    const isUnreserved =
      (code >= 0x41 && code <= 0x5a) ||
      (code >= 0x61 && code <= 0x7a) ||
      (code >= 0x30 && code <= 0x39) ||
      code === 0x2d ||
      code === 0x2e ||
      code === 0x5f ||
      code === 0x7e;
    return isUnreserved ? String.fromCharCode(code) : `%${hex.toUpperCase()}`;
  });
}
