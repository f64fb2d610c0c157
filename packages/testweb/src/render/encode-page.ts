import iconv from 'iconv-lite';
import type { PageSpec } from '../model/web-model.js';

const HEADER_CHARSET_NAMES = {
  gbk: 'GBK',
  gb18030: 'GB18030',
  big5: 'Big5',
  shift_jis: 'Shift_JIS',
  'windows-1252': 'windows-1252',
} as const;

/** The page's bytes in its encoding (UTF-8 unless it is a legacy-charset page). */
export function encodePage(page: PageSpec, html: string): Buffer {
  return page.charset ? iconv.encode(html, page.charset.name) : Buffer.from(html, 'utf8');
}

/** The Content-Type header: it names the charset only when the page declares it in the header. */
export function pageContentType(page: PageSpec): string {
  if (!page.charset) return 'text/html; charset=utf-8';
  return page.charset.declared === 'header'
    ? `text/html; charset=${HEADER_CHARSET_NAMES[page.charset.name]}`
    : 'text/html';
}
