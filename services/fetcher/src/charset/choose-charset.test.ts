import { decodeText } from '@crawler/core';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { chooseCharset } from './choose-charset.js';

const html = (text: string, head = '') =>
  `<!DOCTYPE html><html><head>${head}<title>t</title></head><body><p>${text}</p><p>${text}</p></body></html>`;

describe('chooseCharset', () => {
  it('lets a BOM win over the header, and the header over a meta declaration', () => {
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(html('x', '<meta charset="gbk">'))]);
    expect(chooseCharset(bom, 'text/html; charset=windows-1252')).toEqual({
      charset: 'utf-8',
      source: 'bom',
    });
    expect(chooseCharset(Buffer.from(html('x', '<meta charset="gbk">')), 'text/html; charset=ISO-8859-2')).toEqual({
      charset: 'iso-8859-2',
      source: 'header',
    });
  });

  it('skips an unknown header charset and reads the meta declaration', () => {
    expect(chooseCharset(Buffer.from(html('x', '<meta charset="gbk">')), 'text/html; charset=x-bogus')).toEqual({
      charset: 'gbk',
      source: 'meta',
    });
  });

  it('reads the XML declaration of any document that starts with one, whatever its type', () => {
    const xhtml =
      '<?xml version="1.0" encoding="ISO-8859-2"?><html xmlns="http://www.w3.org/1999/xhtml"><p>x</p></html>';
    for (const type of ['application/xhtml+xml', 'text/html', undefined])
      expect(chooseCharset(Buffer.from(xhtml), type), type).toEqual({
        charset: 'iso-8859-2',
        source: 'xml-declaration',
      });
    // Feeds from generators that print a blank line first; a header charset still wins.
    const feed = Buffer.from("\n  <?xml version='1.0'\n  encoding='koi8-r' ?><rss><channel/></rss>");
    expect(chooseCharset(feed, 'text/html')).toEqual({ charset: 'koi8-r', source: 'xml-declaration' });
    expect(chooseCharset(feed, 'text/xml; charset=windows-1251')).toEqual({
      charset: 'windows-1251',
      source: 'header',
    });
  });

  it('takes a UTF-16 XML declaration readable as ASCII for UTF-8, and skips a label it does not know', () => {
    expect(chooseCharset(Buffer.from('<?xml version="1.0" encoding="UTF-16"?><rss/>'), undefined)).toEqual({
      charset: 'utf-8',
      source: 'xml-declaration',
    });
    const mac = Buffer.from('<?xml version="1.0" encoding="MacCyrillic"?><rss><meta charset="koi8-r"></rss>');
    expect(chooseCharset(mac, undefined)).toEqual({ charset: 'koi8-r', source: 'meta' });
    expect(chooseCharset(Buffer.from('<p><?xml encoding="koi8-r"?></p>'), undefined).source).not.toBe(
      'xml-declaration',
    );
  });

  it.each([
    ['euc-kr', '한국어 웹 페이지입니다. 서울의 날씨는 맑고 따뜻합니다. 오늘은 기차를 타고 부산으로 여행을 떠납니다.'],
    ['shift_jis', 'これは日本語のウェブページです。東京から大阪まで新幹線で旅行します。駅はとても混んでいます。'],
    ['gb18030', '这是一个简体中文网页，火车每天早上从北京开往上海。乘客们在车站等候。'],
    ['big5', '這是一個繁體中文網頁，火車每天早上從台北開往高雄。乘客們在車站等候。'],
    ['windows-1251', 'Это страница на русском языке. Поезд отправляется из Москвы в Санкт-Петербург каждое утро.'],
    ['utf-8', 'Ceci est une page en français : élève, garçon, déjà vu.'],
  ])('detects undeclared %s well enough to decode it', (charset, text) => {
    const chosen = chooseCharset(iconv.encode(html(text), charset), 'text/html');
    expect(chosen.source).toBe('detected');
    expect(decodeText(iconv.encode(html(text), charset), chosen.charset).text).toContain(text);
  });

  it('falls back to windows-1252 for pure ASCII, which every ASCII-compatible charset reads alike', () => {
    expect(chooseCharset(Buffer.from(html('plain ASCII')), undefined)).toEqual({
      charset: 'windows-1252',
      source: 'default',
    });
  });
});
