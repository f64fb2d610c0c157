import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { decodeText, encodeBody, encodingName, rawBody, xmlDeclaredCharset } from './body-codec.js';

const bytes = (...values: number[]) => Buffer.from(values);

describe('body codec', () => {
  it('compresses a body for the bus and gives the same bytes back', () => {
    const body = Buffer.from('<p>hello</p>'.repeat(200));
    const gzipped = encodeBody(body, 'gzip');
    expect(gzipped.length).toBeLessThan(body.length / 10);
    expect(rawBody(gzipped, 'gzip')).toEqual(body);
    expect(encodeBody(body, 'identity')).toBe(body);
    expect(rawBody(body, 'identity')).toBe(body);
  });

  it('names encodings as the Encoding Standard does, iso-8859-16 included', () => {
    expect(encodingName(' Latin1 ')).toBe('windows-1252');
    expect(encodingName('"x-gbk"')).toBe('gbk');
    expect(encodingName('x-user-defined')).toBe('windows-1252');
    expect(encodingName('ISO-8859-16')).toBe('iso-8859-16');
    expect(encodingName('cp1251')).toBe('windows-1251');
    expect(encodingName('no-such-charset')).toBeNull();
    expect(encodingName('constructor')).toBeNull();
  });

  it('decodes windows-1252 as windows-1252, not as Latin-1, under all its labels', () => {
    for (const label of ['windows-1252', 'latin1', 'iso-8859-1', 'ascii'])
      expect(decodeText(bytes(0x80, 0x20, 0x93, 0x71, 0x94), label), label).toEqual({
        text: '€ “q”',
        charset: 'windows-1252',
      });
  });

  it('reads null and unknown labels as UTF-8, drops the byte order mark, and marks bad bytes U+FFFD', () => {
    expect(decodeText(bytes(0xef, 0xbb, 0xbf, 0xc3, 0xa9, 0xff), null)).toEqual({ text: 'é\uFFFD', charset: 'utf-8' });
    expect(decodeText(Buffer.from('é'), 'no-such-charset')).toEqual({ text: 'é', charset: 'utf-8' });
  });

  it('reads the ASCII bytes of Shift_JIS and IBM866 as ASCII (ICU swaps 0x1A, 0x1C and 0x7F)', () => {
    for (const label of ['shift_jis', 'ibm866'])
      expect(decodeText(bytes(0x1a, 0x1c, 0x7f, 0x41), label).text, label).toBe('\x1a\x1c\x7fA');
    expect(decodeText(bytes(0x82, 0xa0, 0x1a), 'shift_jis').text).toBe('あ\x1a');
  });

  it('decodes every encoding of the standard that Node lacks or iconv-lite did not know', () => {
    expect(decodeText(bytes(0xaa, 0xba), 'iso-8859-16')).toEqual({ text: 'Șș', charset: 'iso-8859-16' });
    expect(decodeText(bytes(0x80, 0xdf), 'x-mac-cyrillic').text).toBe('Ая');
    expect(decodeText(Buffer.from('\x1b$B$"\x1b(B!', 'latin1'), 'iso-2022-jp').text).toBe('あ!');
  });

  it('never yields a lone surrogate: a broken UTF-16 pair becomes U+FFFD', () => {
    const text = decodeText(bytes(0x3d, 0xd8, 0x41, 0x00), 'utf-16le').text;
    expect(text).toBe('\uFFFDA');
  });

  it('maps the bytes windows-125x leaves undefined as the standard does, to C1 controls', () => {
    expect(decodeText(bytes(0x98), 'windows-1251').text).toBe('\u0098');
    expect(iconv.decode(bytes(0x98), 'windows-1251')).toBe('\uFFFD');
  });

  it('reads the encoding an XML declaration at the start names, as a WHATWG name', () => {
    const declared = (text: string) => xmlDeclaredCharset(Buffer.from(text));
    expect(declared('<?xml version="1.0" encoding="ISO-8859-1"?><rss/>')).toBe('windows-1252');
    expect(declared("\r\n <?xml version='1.0' encoding='KOI8-R' standalone='yes'?>")).toBe('koi8-r');
    expect(declared('<?xml version="1.0" encoding="utf-16"?>')).toBe('utf-8');
    expect(declared('<?xml version="1.0" encoding="MacCyrillic"?>')).toBeNull();
    expect(declared('<?xml version="1.0"?><rss/>')).toBeNull();
    expect(declared('<rss><?xml version="1.0" encoding="koi8-r"?></rss>')).toBeNull();
  });
});
