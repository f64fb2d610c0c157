import iconv from 'iconv-lite';
import { gunzipSync } from 'node:zlib';

/** The body as the server sent it: bus compression undone. */
export function rawBody(page: { body: Buffer; bodyEncoding: string }): Buffer {
  return page.bodyEncoding === 'gzip' ? gunzipSync(page.body) : page.body;
}

const MARKUP_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const TEXT_TYPES = /^(text\/|application\/(xhtml\+xml|xml|rss\+xml|atom\+xml|json|ld\+json)$)/;

/** HTML pages have blocks and a template; a missing type is read as HTML, as link extraction does. */
export function isMarkup(contentType: string | null): boolean {
  return contentType === null || MARKUP_TYPES.has(contentType);
}

/** Images, PDFs, audio, video, archives: compared by their bytes only, in their own namespace. */
export function isMedia(contentType: string | null): boolean {
  return contentType !== null && !TEXT_TYPES.test(contentType);
}

/** Decoded with the charset the fetcher chose (iconv-lite: Node's TextDecoder reads windows-1252 as Latin-1). */
export function decodeBody(raw: Buffer, charset: string | null): string {
  const name = charset && iconv.encodingExists(charset) ? charset : 'utf-8';
  return iconv.decode(raw, name);
}
