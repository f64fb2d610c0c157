import { gzipSync } from 'node:zlib';
import { parseCrawlJob, Schemas } from '@crawler/core';
import type { FetchResult, ParsedPage, StageContext } from '@crawler/core';
import { sampleMessages } from '@crawler/core/testing';
import { describe, expect, it } from 'vitest';
import { createLinkextractStage } from './linkextract-stage.js';

const limits = { maxLinks: 100, maxAnchorChars: 100, maxTextChars: 10_000 };

function fetched(html: Buffer | string, overrides: Partial<FetchResult> = {}): FetchResult {
  const body = Buffer.isBuffer(html) ? html : Buffer.from(html);
  return { ...sampleMessages[Schemas.FetchResult], url: 'http://a.test/dir/page', finalUrl: 'http://a.test/dir/page', body: gzipSync(body), bodyEncoding: 'gzip', bodyLength: body.length, depth: 1, ...overrides };
}

async function parse(stage: ReturnType<typeof createLinkextractStage>, input: FetchResult): Promise<ParsedPage> {
  const [emission] = await stage.handle(input, {} as StageContext);
  return emission!.value as ParsedPage;
}

describe('linkextract stage', () => {
  const job = parseCrawlJob({ seeds: ['http://a.test/', 'http://b.test/'], maxDepth: 3, scope: { deny: ['/logout'] } });

  it('resolves, canonicalizes, dedupes and scopes links, counting what it drops', async () => {
    const stage = createLinkextractStage({ job, limits, followNofollow: false });
    const page = await parse(
      stage,
      fetched(`<a href="x#top">X</a><a href="./x">again</a><a href="../up?utm_source=z">Up</a><a href="HTTP://B.TEST:80/b">B</a>
        <a href="http://c.test/">C</a><a href="/logout">out</a><a href="mailto:me@a.test">mail</a><a href="/ad" rel="sponsored">ad</a>`),
    );
    expect(page.links.map((link) => link.url)).toEqual(['http://a.test/dir/x', 'http://a.test/up', 'http://b.test/b']);
    expect(page.links[0]!.anchor).toBe('X');
    expect(Object.fromEntries(stage.dropped)).toEqual({ duplicate: 1, 'out-of-scope': 1, denied: 1, scheme: 1, nofollow: 1 });
  });

  it('uses <base href> and the final URL after redirects', async () => {
    const stage = createLinkextractStage({ job, limits, followNofollow: false });
    const viaBase = await parse(stage, fetched('<base href="http://a.test/other/"><a href="y">Y</a>'));
    expect(viaBase.links[0]!.url).toBe('http://a.test/other/y');
    const redirected = await parse(stage, fetched('<a href="z">Z</a>', { finalUrl: 'http://a.test/moved/here' }));
    expect(redirected.links[0]!.url).toBe('http://a.test/moved/z');
  });

  it('emits no links past the maximum depth or from a nofollow page', async () => {
    const stage = createLinkextractStage({ job, limits, followNofollow: false });
    expect((await parse(stage, fetched('<a href="/deeper">d</a>', { depth: 3 }))).links).toEqual([]);
    const nofollow = await parse(stage, fetched('<meta name="robots" content="noindex,nofollow"><a href="/n">n</a>'));
    expect(nofollow).toMatchObject({ links: [], noindex: true, nofollow: true });
    const header = await parse(stage, fetched('<a href="/n">n</a>', { headers: { 'x-robots-tag': 'noindex' } }));
    expect(header.noindex).toBe(true);
  });

  it('decodes the body with the charset the fetcher chose', async () => {
    const stage = createLinkextractStage({ job, limits, followNofollow: false });
    const gbk = Buffer.from([0x3c, 0x70, 0x3e, 0xc4, 0xe3, 0xba, 0xc3, 0x3c, 0x2f, 0x70, 0x3e]); // <p>你好</p> in GBK
    const page = await parse(stage, fetched(gbk, { charset: 'gbk' }));
    expect(page.text).toBe('你好');
    expect(page.charset).toBe('gbk');
  });

  it('records title, description and canonical', async () => {
    const stage = createLinkextractStage({ job, limits, followNofollow: false });
    const page = await parse(stage, fetched('<title>T</title><meta name="description" content="D"><link rel="canonical" href="/canon?utm_medium=x">'));
    expect(page).toMatchObject({ title: 'T', description: 'D', canonicalUrl: 'http://a.test/canon' });
  });
});
