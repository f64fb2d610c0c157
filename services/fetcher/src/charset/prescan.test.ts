import { describe, expect, it } from 'vitest';
import { prescanMetaCharset } from './prescan.js';

const scan = (html: string) => prescanMetaCharset(Buffer.from(html, 'latin1'));

describe('prescanMetaCharset (HTML standard prescan)', () => {
  it.each([
    ['<meta charset="Shift_JIS">', 'shift_jis'],
    ["<META CHARSET='gbk'>", 'gbk'],
    ['<meta charset=big5>', 'big5'],
    ['<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">', 'koi8-r'],
    ['<meta content="text/html; charset=\'euc-kr\'" http-equiv="content-type">', 'euc-kr'],
    ['<meta charset="latin1">', 'windows-1252'],
    ['<meta charset="utf-16le">', 'utf-8'],
    ['<meta charset="x-user-defined">', 'windows-1252'],
  ])('reads %s as %s', (html, expected) => {
    expect(scan(`<!DOCTYPE html><html><head>${html}</head>`)).toBe(expected);
  });

  it('skips comments, other tags and declarations that only look like one', () => {
    expect(scan('<!-- <meta charset="shift_jis"> --><meta charset="big5">')).toBe('big5');
    expect(scan('<meta name="x" content="charset=euc-jp"><meta charset="gbk">')).toBe('gbk');
    expect(scan('<div title="<meta charset=koi8-r>"></div><meta charset="iso-8859-2">')).toBe('iso-8859-2');
    expect(scan('<meta charset="no-such-charset"><meta charset="big5">')).toBe('big5');
    expect(scan('<p>no declaration</p>')).toBeNull();
  });

  it('looks at the first 1024 bytes only', () => {
    expect(scan(`<!-- ${'x'.repeat(1100)} --><meta charset="gbk">`)).toBeNull();
    expect(scan(`${' '.repeat(1010)}<meta charset="gbk">`)).toBeNull();
  });
});
