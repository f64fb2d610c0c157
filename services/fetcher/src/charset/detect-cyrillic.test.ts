import { readFileSync } from 'node:fs';
import { decodeText } from '@crawler/core';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { chooseCharset } from './choose-charset.js';
import { detectCyrillic } from './detect-cyrillic.js';

const fixture = (name: string) =>
  readFileSync(new URL(`./fixtures/cyrillic/${name}.txt`, import.meta.url), 'utf8').trim();
/** iconv-lite's names for the WHATWG encodings the texts are written in. */
const ICONV_NAME: Record<string, string> = { 'x-mac-cyrillic': 'maccyrillic' };
/** KOI8, ISO-8859-5 and DOS pages have no « » —: their writers used ASCII quotes and dashes. */
const LACKS_TYPOGRAPHY = new Set(['koi8-r', 'koi8-u', 'iso-8859-5', 'ibm866']);
const encode = (text: string, charset: string) => {
  const written = LACKS_TYPOGRAPHY.has(charset) ? text.replace(/[«»]/g, '"').replace(/—/g, '-') : text;
  const bytes = iconv.encode(written, ICONV_NAME[charset] ?? charset);
  // The test means what it says only if the code page holds every character of the text.
  expect(decodeText(bytes, charset).text).toBe(written);
  return { bytes, written };
};
const page = (text: string) =>
  `<!DOCTYPE html><html><head><title>${text.slice(0, 40)}</title><link rel="stylesheet" href="/style.css"></head>` +
  `<body><div class="content"><p>${text}</p></div><a href="/next">next</a></body></html>`;
const feed = (text: string) =>
  `<rss version="2.0"><channel><title>news</title><item><title>${text.slice(0, 30)}</title>` +
  `<link>http://example.test/1</link><description>${text}</description></item></channel></rss>`;

const CASES: [string, string[]][] = [
  ['ru-news', ['windows-1251', 'koi8-r', 'iso-8859-5', 'ibm866', 'x-mac-cyrillic']],
  ['ru-forum', ['windows-1251', 'koi8-r', 'iso-8859-5', 'ibm866', 'x-mac-cyrillic']],
  ['bg-news', ['windows-1251', 'koi8-r', 'iso-8859-5', 'ibm866', 'x-mac-cyrillic']],
  ['uk-news', ['windows-1251', 'koi8-u', 'iso-8859-5', 'x-mac-cyrillic']],
];

describe('Cyrillic detection', () => {
  describe.each(CASES)('%s', (name, charsets) => {
    const text = fixture(name);
    it.each(charsets)('undeclared %s, as a page and as a feed, is detected and decodes back', (charset) => {
      for (const document of [page(text), feed(text)]) {
        const { bytes, written } = encode(document, charset);
        const chosen = chooseCharset(bytes, 'text/html');
        expect(chosen.source).toBe('detected');
        expect(decodeText(bytes, chosen.charset).text).toBe(written);
      }
    });
  });

  it('leaves other scripts and Latin pages with a Cyrillic name or two to the other detectors', () => {
    const greek = iconv.encode(
      page(
        'Η βιβλιοθήκη του πάρκου άνοιξε χθες το βράδυ και οι κάτοικοι της γειτονιάς διαβάζουν στα παγκάκια δίπλα στη λίμνη.',
      ),
      'iso-8859-7',
    );
    expect(detectCyrillic(greek)).toBeNull();
    const hebrew = iconv.encode(
      page('הספרייה בפארק נפתחה אתמול בערב ותושבי השכונה קוראים ספרים על הספסלים ליד האגם הקטן שבמרכז העיר.'),
      'windows-1255',
    );
    expect(detectCyrillic(hebrew)).toBeNull();
    const french = iconv.encode(
      page('Le café de la rue Montorgueil a fermé ; déjà vu, hélas, à côté du théâtre. Владимир'),
      'windows-1251',
    );
    expect(detectCyrillic(french)).toBeNull();
    const german = iconv.encode(
      page('Die Bücherei im Park öffnete gestern; Anwohner lesen auf den Bänken am Teich.'),
      'windows-1252',
    );
    expect(chooseCharset(german, 'text/html').charset).toBe('windows-1252');
  });
});
