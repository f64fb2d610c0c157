export type DocumentKind = 'html' | 'feed' | 'sitemap' | 'text' | 'gzip' | 'binary' | 'other';

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const FEED_TYPES = new Set(['application/rss+xml', 'application/atom+xml', 'application/rdf+xml']);
const XML_TYPES = new Set(['application/xml', 'text/xml']);
const GZIP_TYPES = new Set(['application/gzip', 'application/x-gzip']);
const SNIFF_BYTES = 2048;

/**
 * What a body is, from the media type the fetcher recorded and the first bytes: gzip magic wins
 * (a gzipped sitemap is often served as XML or octet-stream); NUL or many control bytes mean
 * binary whatever the label says; XML is told apart by its root element.
 */
export function documentKind(mediaType: string | null, body: Buffer, charset: string | null = null): DocumentKind {
  if (body.length >= 2 && body[0] === 0x1f && body[1] === 0x8b) return 'gzip';
  if (!isUtf16(body, charset) && looksBinary(body)) return 'binary';
  const type = mediaType?.toLowerCase() ?? null;
  if (type && GZIP_TYPES.has(type)) return 'binary';
  if (type && FEED_TYPES.has(type)) return xmlRootKind(body) ?? 'feed';
  if (type === null || HTML_TYPES.has(type) || XML_TYPES.has(type) || type.endsWith('+xml')) {
    if (type !== null && HTML_TYPES.has(type) && !mayBeXmlRoot(body)) return 'html';
    const root = xmlRootKind(body);
    if (root) return root;
    if (type === null || HTML_TYPES.has(type)) return 'html';
    return /<html[\s>]/i.test(head(body)) ? 'html' : 'other';
  }
  if (type === 'text/plain') return 'text';
  return 'other';
}

/** UTF-16 text is full of NUL bytes; its BOM or the recorded charset says so. */
function isUtf16(body: Buffer, charset: string | null): boolean {
  if (charset?.toLowerCase().startsWith('utf-16')) return true;
  return body.length >= 2 && ((body[0] === 0xff && body[1] === 0xfe) || (body[0] === 0xfe && body[1] === 0xff));
}

function head(body: Buffer): string {
  return body.subarray(0, SNIFF_BYTES).toString('latin1');
}

/** Cheap look at the first markup: an XML declaration or one of the feed/sitemap roots. */
function mayBeXmlRoot(body: Buffer): boolean {
  let i = 0;
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) i = 3;
  while (
    i < body.length &&
    i < SNIFF_BYTES &&
    (body[i] === 0x20 || body[i] === 0x09 || body[i] === 0x0a || body[i] === 0x0d)
  )
    i++;
  if (body[i] !== 0x3c /* < */) return false;
  const start = body
    .subarray(i + 1, i + 13)
    .toString('latin1')
    .toLowerCase();
  return /^(?:\?xml|!--|urlset|sitemapindex|rss|feed|rdf:rdf)/.test(start);
}

/** The kind an XML root element names: <urlset>/<sitemapindex>, <rss>/<feed>/<rdf:RDF>. */
function xmlRootKind(body: Buffer): DocumentKind | null {
  const text = head(body).replace(/^\uFEFF|^\xEF\xBB\xBF/, '');
  const root = text
    .replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>/gi, '')
    .match(/^\s*<([\w:.-]+)/)?.[1]
    ?.toLowerCase();
  if (!root) return null;
  const local = root.slice(root.lastIndexOf(':') + 1);
  if (local === 'urlset' || local === 'sitemapindex') return 'sitemap';
  if (local === 'rss' || local === 'feed' || local === 'rdf') return 'feed';
  return null;
}

/** NUL bytes, or more than 10% control bytes other than tab, CR, LF, FF and ESC, in the first 2 KiB. */
export function looksBinary(body: Buffer): boolean {
  const sample = body.subarray(0, SNIFF_BYTES);
  if (sample.length === 0) return false;
  let control = 0;
  for (let i = 0; i < sample.length; i++) {
    const byte = sample[i]!;
    if (byte === 0) return true;
    if (byte < 0x20 && byte !== 9 && byte !== 10 && byte !== 12 && byte !== 13 && byte !== 27) control++;
  }
  return control / sample.length > 0.1;
}
