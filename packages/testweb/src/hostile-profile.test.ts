import { connect } from 'node:net';
import { gunzipSync } from 'node:zlib';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GZIP_BOMB_BYTES } from './hosts/edge-body-pages.js';
import { MANY_LINKS, ONE_LINE_BYTES, WINDOWS_1252_TEXT } from './hosts/hostile-bodies.js';
import {
  CALENDAR_START,
  CHAIN_HOPS,
  DRIP_BODY_BYTES,
  HEADER_LINES,
  HOSTILE_HOST_NAMES,
  HOSTILE_PAGES,
  HUGE_HEADER_BYTES,
} from './hosts/hostile-host.js';
import { LONG_HREF_CHARS, malformedHrefs } from './hosts/malformed-hrefs.js';
import { resolveOptions } from './options.js';
import { httpGet } from './test-support/http-get.js';
import { startTestWeb, type TestWeb } from './test-web.js';

/** What arrived on a fresh connection after a GET, within `ms` or until the server closed it. */
function rawGet(url: string, ms: number): Promise<{ bytes: Buffer; closed: boolean }> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname, () =>
      socket.write(`GET ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`),
    );
    const done = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ bytes: Buffer.concat(chunks), closed });
    };
    const timer = setTimeout(() => done(false), ms);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => done(true));
    socket.on('error', reject);
  });
}

const headerBlock = (bytes: Buffer) => bytes.subarray(0, bytes.indexOf('\r\n\r\n')).toString('latin1');
const bodyOf = (bytes: Buffer) => bytes.subarray(bytes.indexOf('\r\n\r\n') + 4);

describe('hostile profile', () => {
  let web: TestWeb;
  let origin: string;
  beforeAll(async () => {
    web = await startTestWeb({ profile: 'hostile' });
    origin = web.hosts[0]!.origin;
  });
  afterAll(() => web.close());

  it('has one host, no seeds and no pages in its ground truth', () => {
    expect(web.hosts.map((host) => host.name)).toEqual([...HOSTILE_HOST_NAMES]);
    expect(web.seeds).toEqual([]);
    expect(web.groundTruth().pages).toEqual([]);
    expect(() => resolveOptions({ profile: 'hostile', hosts: 2 })).toThrow(/exactly 1 hosts/);
  });

  it('drips: the endless body and the slow body keep the connection open with almost nothing sent, the slow headers never finish', async () => {
    const [endless, body, headers] = await Promise.all(
      ['/endless', '/drip/body', '/drip/headers'].map((path) => rawGet(`${origin}${path}`, 1200)),
    );
    expect(endless!.closed).toBe(false);
    expect(bodyOf(endless!.bytes).toString()).toContain('still loading');
    expect(body!.closed).toBe(false);
    expect(headerBlock(body!.bytes)).toContain(`Content-Length: ${DRIP_BODY_BYTES}`);
    expect(bodyOf(body!.bytes).length).toBeGreaterThan(3);
    expect(bodyOf(body!.bytes).length).toBeLessThan(20);
    expect(headers!.closed).toBe(false);
    expect(headers!.bytes.toString('latin1')).toMatch(/^HTTP\/1\.1 200 OK\r\nC/);
    expect(headers!.bytes.includes('\r\n\r\n')).toBe(false);
  });

  it('serves a gzip bomb, 10 MiB on one line and 100,000 links in under 2 MiB', async () => {
    const bomb = await httpGet(`${origin}/gzip-bomb`);
    expect(bomb.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(bomb.body).length).toBe(GZIP_BOMB_BYTES);
    const line = (await httpGet(`${origin}/one-line`)).body;
    expect(line.length).toBeGreaterThanOrEqual(ONE_LINE_BYTES);
    expect(line.includes('\n')).toBe(false);
    expect(line.toString().endsWith('</body></html>')).toBe(true);
    const links = (await httpGet(`${origin}/links`)).body;
    const hrefs = links.toString().match(/<a href=\/l\/[0-9a-z]+>/g)!;
    expect(new Set(hrefs).size).toBe(MANY_LINKS);
    expect(links.length).toBeLessThan(2 * 1024 * 1024);
  });

  it('serves invalid UTF-8 and mixed encodings under a UTF-8 declaration, and mixed bytes under none', async () => {
    const strict = new TextDecoder('utf-8', { fatal: true });
    const invalid = await httpGet(`${origin}/utf8/invalid`);
    expect(invalid.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(() => strict.decode(invalid.body)).toThrow();
    for (const path of ['/utf8/mixed', '/utf8/mixed-undeclared']) {
      const mixed = await httpGet(`${origin}${path}`);
      expect(() => strict.decode(mixed.body), path).toThrow();
      expect(mixed.body.toString('utf8'), path).toContain('Grüße aus Köln');
      expect(iconv.decode(mixed.body, 'windows-1252'), path).toContain(WINDOWS_1252_TEXT);
    }
    expect((await httpGet(`${origin}/utf8/mixed-undeclared`)).headers['content-type']).toBe('text/html');
  });

  it('serves every malformed href, each the kind of URL it claims to be', async () => {
    const page = (await httpGet(`${origin}/malformed-links`)).body.toString();
    const base = `${origin}/malformed-links`;
    const hrefs = malformedHrefs(origin);
    expect(page.match(/<a href=/g)).toHaveLength(hrefs.length);
    for (const { href, kind } of hrefs) {
      const parsed = URL.canParse(href, base) ? new URL(href, base) : null;
      if (kind === 'invalid') expect(parsed, href).toBeNull();
      if (kind === 'not-http') expect(parsed?.protocol, href).not.toMatch(/^https?:$/);
      if (kind === 'other-host') expect(parsed?.host, href).not.toBe(new URL(origin).host);
      if (kind === 'same-host') expect(parsed?.origin, href).toBe(origin);
      if (kind === 'too-long') expect(parsed!.href.length, href).toBeGreaterThan(LONG_HREF_CHARS);
    }
  });

  it('sends headers past common limits, and many small ones under them', async () => {
    const huge = headerBlock((await rawGet(`${origin}/headers/huge-value`, 5000)).bytes);
    expect(huge.length).toBeGreaterThan(HUGE_HEADER_BYTES);
    const cookies = headerBlock((await rawGet(`${origin}/headers/set-cookie`, 5000)).bytes);
    expect(cookies.match(/^set-cookie: /gim)).toHaveLength(HEADER_LINES);
    expect(cookies.length).toBeGreaterThan(HUGE_HEADER_BYTES);
    const many = await rawGet(`${origin}/headers/many`, 5000);
    expect(headerBlock(many.bytes).match(/^x-h\d+: /gim)).toHaveLength(HEADER_LINES);
    expect(headerBlock(many.bytes).length).toBeLessThan(32 * 1024);
    expect(bodyOf(many.bytes).toString()).toContain('The headers were the point.');
  });

  it('breaks HTTP: a banner of another protocol, a body shorter than its Content-Length', async () => {
    const banner = await rawGet(`${origin}/wire/not-http`, 3000);
    expect(banner).toEqual({ bytes: Buffer.from('SSH-2.0-OpenSSH_9.6\r\n'), closed: true });
    const short = await rawGet(`${origin}/wire/short-body`, 3000);
    expect(short.closed).toBe(true);
    expect(headerBlock(short.bytes)).toContain('Content-Length: 10000');
    expect(bodyOf(short.bytes).length).toBe(100);
  });

  it('redirects in loops, in a long chain and to a Location that is not a URL', async () => {
    expect((await httpGet(`${origin}/loop/a`)).headers.location).toBe('/loop/b');
    expect((await httpGet(`${origin}/loop/b`)).headers.location).toBe('/loop/a');
    expect((await httpGet(`${origin}/loop/self`)).headers.location).toBe('/loop/self');
    let path = '/chain/1';
    let hops = 0;
    for (
      let answer = await httpGet(`${origin}${path}`);
      answer.status === 302;
      answer = await httpGet(`${origin}${path}`), hops++
    )
      path = String(answer.headers.location);
    expect(hops).toBe(CHAIN_HOPS);
    expect(URL.canParse(String((await httpGet(`${origin}/redirect/malformed`)).headers.location))).toBe(false);
  });

  it('generates the calendar trap on demand and logs a request for every hostile URL', async () => {
    const month = (await httpGet(`${origin}${CALENDAR_START}`)).body.toString();
    expect(month).toContain('<a href="07">Next month</a>');
    expect(month).toContain('<a href="05">Previous month</a>');
    for (const { path } of HOSTILE_PAGES) expect(web.requests.count(`${origin}${path}`), path).toBeGreaterThan(0);
  });
});
