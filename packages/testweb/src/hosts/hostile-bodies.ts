import iconv from 'iconv-lite';

/** Size of /one-line: an HTML document of just over 10 MiB without a single line break. */
export const ONE_LINE_BYTES = 10 * 1024 * 1024;
/** Links on /links. */
export const MANY_LINKS = 100_000;

const WORDS = [
  'harbour',
  'lantern',
  'orchard',
  'meadow',
  'granite',
  'willow',
  'ferry',
  'copper',
  'thistle',
  'quarry',
  'beacon',
  'saffron',
];

/** 10 MiB of paragraphs on one line: a parser that splits lines, or keeps a whole body as one string per line, chokes on it. */
export function oneLineHtml(): Buffer {
  const head = '<!DOCTYPE html><html><head><meta charset="utf-8"><title>One line</title></head><body>';
  const tail = '</body></html>';
  const parts: string[] = [head];
  let size = head.length + tail.length;
  for (let i = 0; size < ONE_LINE_BYTES; i++) {
    const paragraph = `<p>${Array.from({ length: 40 }, (_, j) => WORDS[(i * 7 + j * 5) % WORDS.length]).join(' ')}.</p>`;
    parts.push(paragraph);
    size += paragraph.length;
  }
  parts.push(tail);
  return Buffer.from(parts.join(''));
}

/**
 * 100,000 links to /l/<n in base 36>, written as tersely as HTML allows so the page stays under
 * 2 MiB: a crawler with a usual body cap still sees every one of them.
 */
export function manyLinksHtml(): Buffer {
  const links = Array.from({ length: MANY_LINKS }, (_, i) => `<a href=/l/${i.toString(36)}></a>`).join('');
  return Buffer.from(
    `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Many links</title></head><body><p>One hundred thousand links follow.</p>${links}</body></html>`,
  );
}

/** Declared UTF-8 (header and meta), with byte sequences UTF-8 forbids between valid text. */
export function invalidUtf8Html(): Buffer {
  const valid = (text: string) => Buffer.from(text, 'utf8');
  return Buffer.concat([
    valid(
      '<!DOCTYPE html><html><head><meta charset="utf-8"><title>Invalid UTF-8</title></head><body><p>Valid text before: café. ',
    ),
    // A lead byte without its continuation, a lone continuation, an overlong "/", an encoded surrogate, a byte never used.
    Buffer.from([0xc3, 0x28, 0x20, 0x80, 0x20, 0xc0, 0xaf, 0x20, 0xed, 0xa0, 0x80, 0x20, 0xff]),
    valid(' Valid text after: naïve.</p></body></html>'),
  ]);
}

/** A paragraph that reads correctly only in windows-1252 (curly quotes, accents, a dash). */
export const WINDOWS_1252_TEXT = '“Crème brûlée” — déjà vu at the café.';

/** UTF-8 text with a windows-1252 paragraph pasted in, declared UTF-8 by a meta tag or not at all. */
export function mixedEncodingHtml(declared: boolean): Buffer {
  return Buffer.concat([
    Buffer.from(
      `<!DOCTYPE html><html><head>${declared ? '<meta charset="utf-8">' : ''}<title>Mixed encodings</title></head><body><p>UTF-8 text: Grüße aus Köln, 東京.</p><p>`,
      'utf8',
    ),
    iconv.encode(WINDOWS_1252_TEXT, 'windows-1252'),
    Buffer.from('</p></body></html>', 'utf8'),
  ]);
}
