import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parseCrawlJob } from '@crawler/core';
import { waitFor } from '@crawler/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCrawlSession } from './crawl-session.js';
import { parseWarcRecords, WarcPageStore } from '@crawler/embedded';

const TARGETS = 150;
const REPEATS = 80;
const OFF_SITE = 300;
const CAP = 400 * 1024;
const MAX_LINKS = 120;
const WIDE = MAX_LINKS + 20;

/**
 * An index page like Python's contents.html or genindex-all.html: every target linked many times
 * (with fragments), off-site links too, and more bytes than the body cap.
 */
function indexPage(): string {
  const offSite = Array.from({ length: OFF_SITE }, (_, i) => `<a href="http://elsewhere.test/${i}">x</a>`).join('');
  const entries: string[] = [];
  for (let target = 0; target < TARGETS; target++)
    for (let k = 0; k < REPEATS; k++)
      entries.push(`<li><a href="p/${target}.html#s-${k}">entry ${target}.${k}</a></li>`);
  return `<html><head><title>Index</title></head><body>${offSite}<ul>${entries.join('\n')}</ul></body></html>`;
}

const leaf = (n: number) =>
  `<html><head><title>Page ${n}</title></head><body><p>${`page ${n} of the index with words `.repeat(20)}</p></body></html>`;

describe('caps in a real crawl: a page over the body cap and a page over the link cap', () => {
  const index = Buffer.from(indexPage());
  const wide = `<html><body>${Array.from({ length: WIDE }, (_, i) => `<a href="/w/${i}">w${i}</a>`).join('')}</body></html>`;
  let server: Server;
  let origin: string;
  let outDir: string;

  beforeAll(async () => {
    server = createServer((request, response) => {
      const path = request.url ?? '/';
      const html = (body: string | Buffer) =>
        response.writeHead(200, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(body) }).end(body);
      if (path === '/') return html(index);
      if (path === '/wide') return html(wide);
      // p/0.html and p/1.html are the same page: one of them is dropped as a duplicate.
      const page = path.match(/^\/(?:p\/(\d+)\.html|w\/(\d+))$/);
      if (page) return html(leaf(page[1] === '1' ? 0 : Number(page[1] ?? 1000 + Number(page[2]))));
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    outDir = mkdtempSync(join(tmpdir(), 'caps-crawl-'));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(outDir, { recursive: true, force: true });
  });

  it('keeps the cut page with its server headers, marks it WARC-Truncated, keeps the links of the part it has, and says so in crawl.log', async () => {
    const job = parseCrawlJob({ seeds: [`${origin}/`, `${origin}/wide`], maxDepth: 1 });
    await runCrawlSession({
      outDir,
      job,
      quiet: true,
      maxTimeMs: 60_000,
      overrides: {
        fetcher: { allowAddresses: ['127.0.0.1'], minDelayMs: 0, perHostConcurrency: 4, maxBodyBytes: CAP },
        linkextract: { maxLinks: MAX_LINKS },
      },
    });

    // The links the first CAP bytes hold, each target once: what a cut page can and must pass on.
    const cut = index.subarray(0, CAP).toString('latin1');
    const inCut = new Set([...cut.matchAll(/<a href="p\/(\d+)\.html#s-\d+">/g)].map((m) => `${origin}/p/${m[1]}.html`));
    expect(inCut.size).toBeGreaterThan(80);
    expect(inCut.size).toBeLessThan(TARGETS);

    const store = await WarcPageStore.open(join(outDir, 'warc'));
    try {
      const [page] = await store.get(`${origin}/`);
      expect(page!.truncated).toBe(true);
      expect(page!.bodyLength).toBe(CAP);
      expect(new Set(page!.links.map((link) => link.url))).toEqual(inCut);
      // The link cap counts distinct in-scope links: 120 of /wide's 140 are passed on.
      const [widePage] = await store.get(`${origin}/wide`);
      expect(widePage!.links).toHaveLength(MAX_LINKS);
    } finally {
      await store.close();
    }

    const file = readdirSync(join(outDir, 'warc')).find((name) => name.endsWith('.warc.gz'))!;
    const records = parseWarcRecords(gunzipSync(readFileSync(join(outDir, 'warc', file))));
    const response = records.find(
      (record) =>
        record.headers.get('warc-type') === 'response' && record.headers.get('warc-target-uri') === `${origin}/`,
    )!;
    expect(response.headers.get('warc-truncated')).toBe('length');
    const httpHead = response.block.subarray(0, response.block.indexOf('\r\n\r\n')).toString('latin1');
    // The server's Content-Length, not the length of the cut body.
    expect(httpHead).toContain(`content-length: ${index.length}`);
    expect(response.block.length - httpHead.length - 4).toBe(CAP);

    // One warning per case, each naming its page.
    const warnings = await waitFor(() => {
      const lines = readFileSync(join(outDir, 'crawl.log'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { level: string; msg: string; url?: string; duplicateOf?: string });
      const warned = lines.filter((line) => line.level === 'warn');
      if (!warned.some((line) => line.msg.startsWith('page dropped as a duplicate'))) throw new Error('not logged yet');
      return warned;
    });
    const about = (prefix: string) => warnings.filter((line) => line.msg.startsWith(prefix));
    expect(about('body truncated').map((line) => line.url)).toEqual([`${origin}/`]);
    expect(about('links capped').map((line) => line.url)).toEqual([`${origin}/wide`]);
    const pair = [`${origin}/p/0.html`, `${origin}/p/1.html`];
    const duplicate = about('page dropped as a duplicate');
    expect(duplicate).toHaveLength(1);
    expect([duplicate[0]!.url, duplicate[0]!.duplicateOf].sort()).toEqual(pair);
  });
});
