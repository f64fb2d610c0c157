import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIG_BODY_BYTES, COMPRESSED_TEXT, GZIP_BOMB_BYTES } from './hosts/edge-body-pages.js';
import { EDGE_CHARSET_PAGES } from './hosts/edge-charset-pages.js';
import { EDGE_HOST_NAMES } from './hosts/edge-hosts.js';
import { EDGE_COOKIE } from './hosts/edge-http-host.js';
import { ROBOTS_ODD_PADDING_BYTES } from './hosts/edge-robots-hosts.js';
import { resolveOptions } from './options.js';
import { httpGet } from './test-support/http-get.js';
import { startTestWeb, type TestWeb } from './test-web.js';

describe('edge profile', () => {
  let web: TestWeb;
  const at = (name: string, path: string) => `${web.hosts.find((host) => host.name === name)!.origin}${path}`;
  beforeAll(async () => {
    web = await startTestWeb({ profile: 'edge' });
  });
  afterAll(() => web.close());

  it('has its fixed hosts, no seeds and no pages in its ground truth', () => {
    expect(web.hosts.map((host) => host.name)).toEqual([...EDGE_HOST_NAMES]);
    expect(web.seeds).toEqual([]);
    expect(web.groundTruth().pages).toEqual([]);
    expect(() => resolveOptions({ profile: 'edge', hosts: 3 })).toThrow(/exactly 6 hosts/);
  });

  it('serves one robots.txt behaviour per robots host', async () => {
    const odd = await httpGet(at('robots-odd', '/robots.txt'));
    expect([...odd.body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(odd.body.length).toBeGreaterThan(ROBOTS_ODD_PADDING_BYTES);
    expect(odd.body.toString('utf8')).toMatch(/Disallow: \/late\n$/);
    expect(odd.body.toString('utf8')).toContain('\rDisallow: /\r');
    expect((await httpGet(at('robots-error', '/robots.txt'))).status).toBe(503);
    expect((await httpGet(at('robots-denied', '/robots.txt'))).status).toBe(401);
    const hops: number[] = [];
    let url = at('robots-redirect', '/robots.txt');
    for (let response = await httpGet(url); response.status !== 200; response = await httpGet(url)) {
      hops.push(response.status);
      url = new URL(String(response.headers.location), url).href;
    }
    expect(hops).toEqual([301, 302, 307]);
    expect((await httpGet(url)).body.toString()).toContain('Disallow: /blocked');
    const loop = await httpGet(at('robots-loop', '/robots-again.txt'));
    expect(loop.headers.location).toBe('/robots.txt');
  });

  it('encodes bodies as their Content-Encoding says, including a bomb', async () => {
    const decoders: Record<string, (bytes: Buffer) => Buffer> = {
      '/encoding/gzip': gunzipSync,
      '/encoding/deflate': inflateSync,
      '/encoding/deflate-raw': inflateRawSync,
      '/encoding/br': brotliDecompressSync,
      '/encoding/gzip-br': (bytes) => gunzipSync(brotliDecompressSync(bytes)),
    };
    for (const [path, decode] of Object.entries(decoders))
      expect(decode((await httpGet(at('http', path))).body).toString(), path).toContain(COMPRESSED_TEXT);
    // zstd as stored blocks: the magic number, then the page's own bytes (checked with zstd -d when written).
    const zstd = await httpGet(at('http', '/encoding/zstd'));
    expect(zstd.headers['content-encoding']).toBe('zstd');
    expect(zstd.body.readUInt32LE(0)).toBe(0xfd2fb528);
    expect(zstd.body.toString()).toContain(COMPRESSED_TEXT);
    const bomb = await httpGet(at('http', '/gzip-bomb'));
    expect(bomb.body.length).toBeLessThan(GZIP_BOMB_BYTES / 100);
    expect(gunzipSync(bomb.body).length).toBe(GZIP_BOMB_BYTES);
    expect((await httpGet(at('http', '/big'))).body.length).toBeGreaterThan(BIG_BODY_BYTES);
  });

  it('sends content types that lie about the body, and none at all', async () => {
    const pdf = await httpGet(at('http', '/lies/pdf-as-html'));
    expect([pdf.headers['content-type'], pdf.body.subarray(0, 5).toString()]).toEqual(['text/html', '%PDF-']);
    expect((await httpGet(at('http', '/lies/no-type'))).headers['content-type']).toBeUndefined();
  });

  it('serves charset pages whose bytes decode to the sample text in their charset', async () => {
    for (const page of EDGE_CHARSET_PAGES) {
      const response = await httpGet(at('http', page.path));
      const decoded = iconv.decode(response.body, page.charset);
      expect(decoded, page.path).toContain(page.sampleText);
      if (page.charset !== 'utf-8') expect(response.body.toString('utf8'), page.path).not.toContain(page.sampleText);
    }
  });

  it('gates /cookies/check on the cookie that /cookies/start sets', async () => {
    const start = await httpGet(at('http', '/cookies/start'));
    expect(start.status).toBe(302);
    expect(String(start.headers['set-cookie'])).toContain(EDGE_COOKIE);
    expect((await httpGet(at('http', '/cookies/check'))).status).toBe(403);
    expect((await httpGet(at('http', '/cookies/check'), { cookie: EDGE_COOKIE })).status).toBe(200);
  });

  it('answers Retry-After as seconds and as an HTTP date, and slowly where it says so', async () => {
    expect((await httpGet(at('http', '/busy/seconds'))).headers['retry-after']).toBe('2');
    const dated = await httpGet(at('http', '/busy/date'));
    expect(Date.parse(String(dated.headers['retry-after'])) - Date.now()).toBeGreaterThan(1000);
    const started = Date.now();
    expect((await httpGet(at('http', '/slow-answer'))).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
  });
});
