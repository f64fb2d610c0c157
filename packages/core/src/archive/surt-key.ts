/**
 * The index key replay tools look a URL up by: the `surt` library's default canonicalization
 * (GoogleURLCanonicalizer, then IAURLCanonicalizer), as pywb, py-wacz and ReplayWeb.page compute it.
 * It differs from the crawler's own row key (`surtKey`): `www.` is dropped, path and query are
 * lowercased, query arguments sorted, IP addresses reversed. A CDXJ index sorted by another key is
 * binary-searched wrong, so the archive's index uses exactly this one.
 */
export function archiveSurtKey(input: string): string {
  const url = new URL(input);
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  // Google canonicalizer: fragment gone, query minimally escaped, host and path unescaped and escaped once.
  let query: Buffer | null = url.search.length > 1 ? escapeOnce(unescapeRepeatedly(bytes(url.search.slice(1)))) : null;
  let host = unescapeRepeatedly(bytes(url.hostname.replace(/^\[|\]$/g, '')))
    .toString('latin1')
    .replace(/\.\./g, '.')
    .replace(/^\.+|\.+$/g, '');
  host = escapeOnce(bytes(host.toLowerCase())).toString('latin1');
  let path = escapeOnce(normalizePath(unescapeRepeatedly(bytes(url.pathname)))).toString('latin1');
  // IA canonicalizer, default options.
  host = host.replace(/^www\d*\./, '');
  const port = url.port && Number(url.port) !== defaultPort(scheme) ? `:${Number(url.port)}` : '';
  path = stripPathSessionId(path.toLowerCase());
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  if (query !== null) {
    let text = stripQuerySessionId(query.toString('latin1')).toLowerCase();
    text = alphaReorderQuery(text);
    query = text === '' ? null : Buffer.from(text, 'latin1');
  }
  const surtHost = host.split('.').reverse().join(',');
  return `${surtHost}${port})${path || (query !== null ? '/' : '')}${query !== null ? `?${query.toString('latin1')}` : ''}`;
}

function bytes(text: string): Buffer {
  return Buffer.from(text, 'utf8');
}

function defaultPort(scheme: string): number {
  return scheme === 'http' ? 80 : scheme === 'https' ? 443 : 0;
}

function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  return -1;
}

/** Percent-decoding until nothing changes, as the surt library does (so %2541 ends as A). */
function unescapeRepeatedly(input: Buffer): Buffer {
  let current = input;
  for (;;) {
    const out: number[] = [];
    for (let i = 0; i < current.length; i++) {
      const byte = current[i]!;
      if (byte === 0x25 && i + 2 < current.length) {
        const high = hexValue(current[i + 1]!);
        const low = hexValue(current[i + 2]!);
        if (high >= 0 && low >= 0) {
          out.push(high * 16 + low);
          i += 2;
          continue;
        }
      }
      out.push(byte);
    }
    const next = Buffer.from(out);
    if (next.equals(current)) return current;
    current = next;
  }
}

/** Python's quote() with the surt library's safe set: escapes controls, space, non-ASCII, `#` and `%`. */
const SAFE = new Set(
  Buffer.from(
    `ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-~!"$&'()*+,/:;<=>?@[\\]^\`{|}`,
    'latin1',
  ),
);

function escapeOnce(input: Buffer): Buffer {
  let out = '';
  for (const byte of input)
    out += SAFE.has(byte) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  return Buffer.from(out, 'latin1');
}

/** `.` and `..` resolved, empty segments dropped except a trailing one (`/a//b/` -> `/a/b/`). */
function normalizePath(path: Buffer): Buffer {
  if (path.length === 0) return Buffer.from('/');
  const segments = path.toString('latin1').split('/').slice(1);
  const kept: string[] = [];
  for (const segment of segments) {
    if (segment === '.') continue;
    if (segment === '..') {
      if (kept.length > 0) kept.pop();
      else kept.push(segment);
    } else kept.push(segment);
  }
  let out = '/';
  for (let i = 0; i < kept.length - 1; i++) if (kept[i]!.length > 0) out += `${kept[i]}/`;
  if (kept.length > 0) out += kept[kept.length - 1];
  return Buffer.from(out, 'latin1');
}

const PATH_SESSION_IDS = [
  /^(.*\/)(\((?:[a-z]\([0-9a-z]{24}\))+\)\/)([^?]+\.aspx.*)$/i,
  /^(.*\/)(\([0-9a-z]{24}\)\/)([^?]+\.aspx.*)$/i,
];

function stripPathSessionId(path: string): string {
  let out = path;
  for (const pattern of PATH_SESSION_IDS) {
    const match = pattern.exec(out);
    if (match) out = match[1]! + match[3]!;
  }
  return out;
}

const QUERY_SESSION_IDS = [
  /^(.*)(?:jsessionid=[0-9a-zA-Z]{32})(?:&(.*))?$/i,
  /^(.*)(?:phpsessid=[0-9a-zA-Z]{32})(?:&(.*))?$/i,
  /^(.*)(?:sid=[0-9a-zA-Z]{32})(?:&(.*))?$/i,
  /^(.*)(?:ASPSESSIONID[a-zA-Z]{8}=[a-zA-Z]{24})(?:&(.*))?$/i,
  /^(.*)(?:cfid=[^&]+&cftoken=[^&]+)(?:&(.*))?$/i,
];

function stripQuerySessionId(query: string): string {
  let out = query;
  for (const pattern of QUERY_SESSION_IDS) {
    const match = pattern.exec(out);
    if (match) out = match[2] ? match[1]! + match[2] : match[1]!;
  }
  return out;
}

/** Arguments sorted as Python sorts (name, value) tuples: a bare `a` before `a=`. */
function alphaReorderQuery(query: string): string {
  if (query.length <= 1) return query;
  const args = query.split('&').map((arg) => {
    const equals = arg.indexOf('=');
    return equals < 0 ? [arg] : [arg.slice(0, equals), arg.slice(equals + 1)];
  });
  args.sort((a, b) => {
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
    return a.length - b.length;
  });
  return args.map((arg) => arg.join('=')).join('&');
}
