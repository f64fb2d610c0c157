import iconv from 'iconv-lite';
import { addResource } from '../model/page-kit.js';
import type { HostModel } from '../model/web-model.js';
import { fixed } from './edge-answers.js';

export interface EdgeCharsetPage {
  path: string;
  /** WHATWG encoding name the bytes are in. */
  charset: string;
  /** Where the page says so: nowhere, the header, a <meta charset>, a <meta http-equiv>, a BOM or an XML declaration. */
  declared: 'none' | 'header' | 'meta' | 'http-equiv' | 'bom' | 'xml-declaration';
  /** A phrase of the visible text, as it reads once decoded correctly. */
  sampleText: string;
}

const KOREAN =
  '한국어 웹 페이지입니다. 서울의 날씨는 맑고 따뜻합니다. 오늘은 기차를 타고 부산으로 여행을 떠납니다. 역에는 사람들이 많습니다.';
const RUSSIAN =
  'Это страница на русском языке. Поезд отправляется из Москвы в Санкт-Петербург каждое утро, и пассажиры пьют горячий чай.';
const RUSSIAN_KOI8 = 'Библиотека открыта каждый день с девяти утра до восьми вечера, кроме воскресенья.';
const CZECH = 'Příliš žluťoučký kůň úpěl ďábelské ódy.';
const TRADITIONAL_CHINESE = '這是一個繁體中文網頁，火車每天早上從台北開往高雄。';
const SIMPLIFIED_CHINESE = '这是一个简体中文网页，火车每天早上从北京开往上海。';
const GERMAN = 'Grüße aus Köln — „Dom“ und Rhein.';
const FRENCH = 'Ceci est une page en français : élève, garçon, déjà vu, où est la gare ?';

/** Pages in the charsets the full profile lacks, and declarations that need care to read. */
export const EDGE_CHARSET_PAGES: EdgeCharsetPage[] = [
  { path: '/charset/euc-kr-none', charset: 'euc-kr', declared: 'none', sampleText: KOREAN },
  { path: '/charset/windows-1251-none', charset: 'windows-1251', declared: 'none', sampleText: RUSSIAN },
  { path: '/charset/koi8-r-http-equiv', charset: 'koi8-r', declared: 'http-equiv', sampleText: RUSSIAN_KOI8 },
  { path: '/charset/iso-8859-2-xml', charset: 'iso-8859-2', declared: 'xml-declaration', sampleText: CZECH },
  { path: '/charset/big5-meta-after-comment', charset: 'big5', declared: 'meta', sampleText: TRADITIONAL_CHINESE },
  { path: '/charset/gbk-bogus-header', charset: 'gbk', declared: 'meta', sampleText: SIMPLIFIED_CHINESE },
  { path: '/charset/utf-8-bom-vs-header', charset: 'utf-8', declared: 'bom', sampleText: GERMAN },
  { path: '/charset/utf-8-none', charset: 'utf-8', declared: 'none', sampleText: FRENCH },
];

const page = (head: string, text: string) =>
  `<!DOCTYPE html>\n<html><head>${head}<title>Charset test</title></head><body><p>${text}</p><p>${text}</p></body></html>\n`;

function encoded(path: string): { contentType: string; body: Buffer } {
  const spec = EDGE_CHARSET_PAGES.find((entry) => entry.path === path)!;
  const encode = (html: string) => iconv.encode(html, spec.charset);
  switch (path) {
    case '/charset/koi8-r-http-equiv':
      return {
        contentType: 'text/html',
        body: encode(page('<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">', spec.sampleText)),
      };
    case '/charset/iso-8859-2-xml':
      return {
        contentType: 'application/xhtml+xml',
        body: encode(
          `<?xml version="1.0" encoding="ISO-8859-2"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Charset test</title></head><body><p>${spec.sampleText}</p></body></html>\n`,
        ),
      };
    case '/charset/big5-meta-after-comment':
      // The commented-out declaration must be skipped, as the HTML prescan does.
      return {
        contentType: 'text/html',
        body: encode(
          page(
            '<!-- <meta charset="shift_jis"> --><meta name="x" content="charset=euc-jp"><meta charset="big5">',
            spec.sampleText,
          ),
        ),
      };
    case '/charset/gbk-bogus-header':
      return {
        contentType: 'text/html; charset=x-no-such-charset',
        body: encode(page('<meta charset="gbk">', spec.sampleText)),
      };
    case '/charset/utf-8-bom-vs-header':
      return {
        contentType: 'text/html; charset=windows-1252',
        body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(page('', spec.sampleText))]),
      };
    default:
      return { contentType: 'text/html', body: encode(page('', spec.sampleText)) };
  }
}

export function addEdgeCharsetPages(host: HostModel): void {
  for (const { path } of EDGE_CHARSET_PAGES) {
    const { contentType, body } = encoded(path);
    addResource(host, path, fixed({ status: 200, headers: { 'content-type': contentType }, body }));
  }
}
