import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpGet } from './test-support/http-get.js';
import { startTestWeb, type TestWeb } from './test-web.js';
import type { GroundTruth } from './truth/ground-truth.js';

// Node's TextDecoder decodes windows-1252 as Latin-1 on some versions, 20.x included
// (nodejs/node#56542); iconv-lite stands in there as the reference decoder.
const textDecoderKnowsCp1252 = new TextDecoder('windows-1252').decode(Uint8Array.of(0x80)) === '€';
function decode(charset: string, bytes: Buffer): string {
  return charset === 'windows-1252' && !textDecoderKnowsCp1252
    ? iconv.decode(bytes, charset)
    : new TextDecoder(charset).decode(bytes);
}

describe('legacy-charset pages', () => {
  let web: TestWeb;
  let truth: GroundTruth;
  beforeAll(async () => {
    web = await startTestWeb();
    truth = web.groundTruth();
  });
  afterAll(() => web.close());

  it('cover every encoding, with header, meta and no declaration', () => {
    expect(new Set(truth.charsets.map((c) => c.charset))).toEqual(
      new Set(['gbk', 'gb18030', 'big5', 'shift_jis', 'windows-1252']),
    );
    expect(new Set(truth.charsets.map((c) => c.declared))).toEqual(new Set(['header', 'meta', 'none']));
    for (const c of truth.charsets) expect(truth.pages).toContain(c.url);
  });

  it('decode back to their sample text with the named charset, and only with it', async () => {
    for (const c of truth.charsets) {
      const { body } = await httpGet(c.url);
      expect(decode(c.charset, body), c.url).toContain(c.sampleText);
      expect(body.toString('utf8')).not.toContain(c.sampleText);
      expect(/[^\x00-\x7f]/.test(c.sampleText)).toBe(true);
    }
  });

  it('use the windows-1252 bytes that Latin-1 lacks (euro sign, curly quotes, dashes)', async () => {
    for (const c of truth.charsets.filter((x) => x.charset === 'windows-1252')) {
      const { body } = await httpGet(c.url);
      expect(
        body.some((b) => b >= 0x80 && b <= 0x9f),
        c.url,
      ).toBe(true);
    }
  });

  it('declare the charset exactly where the truth says', async () => {
    for (const c of truth.charsets) {
      const { headers, body } = await httpGet(c.url);
      const contentType = String(headers['content-type']).toLowerCase();
      const head = body.toString('latin1').slice(0, 1024).toLowerCase();
      const inMeta = head.includes(`charset=${c.charset}`) || head.includes(`charset="${c.charset}"`);
      expect(contentType.includes('charset='), c.url).toBe(c.declared === 'header');
      expect(inMeta, c.url).toBe(c.declared === 'meta');
      if (c.declared === 'header') expect(contentType).toContain(c.charset);
    }
  });
});
