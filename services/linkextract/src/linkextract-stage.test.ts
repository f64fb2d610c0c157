import { gunzipSync, gzipSync } from 'node:zlib';
import {
  BatchingProducer,
  Codec,
  ErrorCode,
  loadCatalog,
  parseCrawlJob,
  Schemas,
  silentLogger,
  StageRunner,
  Topics,
} from '@crawler/core';
import type { FetchResult, ParsedPage, StageContext, StatusUpdate } from '@crawler/core';
import { sampleMessages, waitFor } from '@crawler/core/testing';
import { InProcessBus } from '@crawler/embedded';
import { describe, expect, it } from 'vitest';
import { createDocumentExtractor } from './documents/document-extractor.js';
import type { ExtractLimits } from './extract-html.js';
import { createLinkextractStage } from './linkextract-stage.js';

const limits: ExtractLimits = {
  maxLinks: 100,
  maxAnchorChars: 100,
  maxTextChars: 10_000,
  maxElements: 10_000,
  maxNesting: 256,
  maxParseMs: 5000,
  maxMarkdownChars: 20_000,
};

function fetched(html: Buffer | string, overrides: Partial<FetchResult> = {}): FetchResult {
  const body = Buffer.isBuffer(html) ? html : Buffer.from(html);
  return {
    ...sampleMessages[Schemas.FetchResult],
    url: 'http://a.test/dir/page',
    finalUrl: 'http://a.test/dir/page',
    contentType: 'text/html',
    charset: null,
    headers: {},
    body: gzipSync(body),
    bodyEncoding: 'gzip',
    bodyLength: body.length,
    depth: 1,
    ...overrides,
  };
}

const codec = new Codec();

/** The page as it travels: every emitted value must survive the real Avro codec. */
async function parse(stage: ReturnType<typeof createLinkextractStage>, input: FetchResult): Promise<ParsedPage> {
  const [emission] = await stage.handle(input, {} as StageContext);
  expect(emission).toMatchObject({ topic: 'crawl.parsed', schema: Schemas.ParsedPage, key: input.queueKey });
  return codec.decode<ParsedPage>(codec.encode(Schemas.ParsedPage, emission!.value), Schemas.ParsedPage);
}

describe('linkextract stage', () => {
  const job = parseCrawlJob({ seeds: ['http://a.test/', 'http://b.test/'], maxDepth: 3, scope: { deny: ['/logout'] } });

  it('passes a redirect on unparsed, as it was fetched, for the archive: no links, no text, nothing counted', async () => {
    const stage = createLinkextractStage({ job, limits, followNofollow: false });
    const note = '<html><body><a href="/new">Moved here</a></body></html>';
    const redirect = fetched(note, { httpStatus: 302, headers: { location: '/new', 'content-type': 'text/html' } });
    const parsed = await parse(stage, redirect);
    expect(parsed).toMatchObject({
      url: redirect.url,
      httpStatus: 302,
      headers: { location: '/new' },
      text: '',
      markdown: null,
      title: null,
      links: [],
      warnings: [],
    });
    expect(gunzipSync(parsed.body).toString()).toBe(note);
    expect(stage.dropped.size + stage.warnings.size).toBe(0);
  });

  it('passes on scoped, canonical links and counts what it drops over all pages', async () => {
    const stage = createLinkextractStage({ job, limits, followNofollow: false });
    await parse(stage, fetched('<a href="x#top">X</a><a href="./x">again</a><a href="http://c.test/">C</a>'));
    const page = await parse(
      stage,
      fetched('<a href="../up?utm_source=z">Up</a><a href="/logout">out</a><a href="/ad" rel="sponsored">ad</a>'),
    );
    expect(page.links).toEqual([
      { url: 'http://a.test/up', anchor: 'Up', rel: null, source: 'a', lastmod: null, changefreq: null },
    ]);
    expect(Object.fromEntries(stage.dropped)).toEqual({ duplicate: 1, 'out-of-scope': 1, denied: 1, nofollow: 1 });
  });

  it('uses <base href> and the final URL after redirects', async () => {
    const stage = createLinkextractStage({ job, limits, followNofollow: false });
    const viaBase = await parse(stage, fetched('<base href="http://a.test/other/"><a href="y">Y</a>'));
    expect(viaBase.links[0]!.url).toBe('http://a.test/other/y');
    const redirected = await parse(stage, fetched('<a href="z">Z</a>', { finalUrl: 'http://a.test/moved/here' }));
    expect(redirected.links[0]!.url).toBe('http://a.test/moved/z');
  });

  it('emits no links past the maximum depth or from a nofollow page, and honours X-Robots-Tag', async () => {
    const stage = createLinkextractStage({ job, limits, followNofollow: false });
    expect((await parse(stage, fetched('<a href="/deeper">d</a>', { depth: 3 }))).links).toEqual([]);
    const nofollow = await parse(stage, fetched('<meta name="robots" content="noindex,nofollow"><a href="/n">n</a>'));
    expect(nofollow).toMatchObject({ links: [], noindex: true, nofollow: true });
    const header = await parse(stage, fetched('<a href="/n">n</a>', { headers: { 'x-robots-tag': 'noindex' } }));
    expect(header).toMatchObject({ noindex: true, nofollow: false });
    const otherBot = await parse(
      stage,
      fetched('<a href="/n">n</a>', { headers: { 'x-robots-tag': 'googlebot: noindex, nofollow' } }),
    );
    expect(otherBot).toMatchObject({ noindex: false, nofollow: false });
  });

  it('honours robots directives addressed to the crawler’s own product token', async () => {
    const stage = createLinkextractStage({ job, limits, followNofollow: false, robotsAgent: 'crawler' });
    expect(
      await parse(
        stage,
        fetched('<meta name="crawler" content="noindex"><meta name="otherbot" content="nofollow"><a href="/n">n</a>'),
      ),
    ).toMatchObject({ noindex: true, nofollow: false });
    expect(
      await parse(
        stage,
        fetched('<a href="/n">n</a>', { headers: { 'x-robots-tag': 'otherbot: noindex, crawler: nofollow' } }),
      ),
    ).toMatchObject({ noindex: false, nofollow: true, links: [] });
  });

  it('decodes the body with the charset the fetcher chose', async () => {
    const stage = createLinkextractStage({ job, limits, followNofollow: false });
    const gbk = Buffer.from([0x3c, 0x70, 0x3e, 0xc4, 0xe3, 0xba, 0xc3, 0x3c, 0x2f, 0x70, 0x3e]); // <p>你好</p> in GBK
    expect(await parse(stage, fetched(gbk, { charset: 'gbk' }))).toMatchObject({ text: '你好', charset: 'gbk' });
    const cp1252 = Buffer.from([0x3c, 0x70, 0x3e, 0x80, 0x20, 0x93, 0x71, 0x94, 0x3c, 0x2f, 0x70, 0x3e]); // <p>€ “q”</p>
    expect(await parse(stage, fetched(cp1252, { charset: 'iso-8859-1' }))).toMatchObject({
      text: '€ “q”',
      charset: 'windows-1252',
    });
  });

  it('records title, description, canonical, language, publish date and fields', async () => {
    const stage = createLinkextractStage({ job, limits, followNofollow: false });
    const page = await parse(
      stage,
      fetched(`<html lang="de"><title>T</title><meta name="description" content="D"><link rel="canonical" href="/canon?utm_medium=x">
        <meta property="og:type" content="article"><meta name="date" content="2023-09-01">`),
    );
    expect(page).toMatchObject({
      title: 'T',
      description: 'D',
      canonicalUrl: 'http://a.test/canon',
      lang: 'de',
      publishedAt: Date.UTC(2023, 8, 1),
      fields: { 'og:type': ['article'] },
    });
  });

  it('applies the job’s extraction rules and flags, not drops, a page missing a required field', async () => {
    const ruled = parseCrawlJob({
      ...job,
      extraction: {
        rules: [
          {
            name: 'product',
            urls: ['/dir/'],
            fields: { name: { selector: 'h1', required: true }, sku: { selector: '.sku', required: true } },
          },
        ],
      },
    });
    const stage = createLinkextractStage({ job: ruled, limits, followNofollow: false });
    const page = await parse(stage, fetched('<h1>Lamp</h1><a href="/x">x</a>'));
    expect(page.fields).toMatchObject({ name: ['Lamp'], 'rules:matched': ['product'], 'rules:missing': ['sku'] });
    expect(page.warnings).toContain('required-field-missing');
    expect(page.links).toHaveLength(1);
    expect(stage.warnings.get('required-field-missing')).toBe(1);
  });

  it('parses feeds and sitemaps that arrive, and flags binary bodies served as HTML', async () => {
    const stage = createLinkextractStage({ job, limits, followNofollow: false });
    const feed = await parse(
      stage,
      fetched('<rss><channel><item><title>I</title><link>http://a.test/i</link></item></channel></rss>', {
        contentType: 'application/rss+xml',
      }),
    );
    expect(feed.links).toEqual([
      { url: 'http://a.test/i', anchor: 'I', rel: null, source: 'feed', lastmod: null, changefreq: null },
    ]);
    const sitemap = await parse(
      stage,
      fetched(gzipSync('<urlset><url><loc>http://b.test/s</loc></url></urlset>'), {
        contentType: 'application/x-gzip',
      }),
    );
    expect(sitemap.links.map((link) => link.url)).toEqual(['http://b.test/s']);
    const hinted = await parse(
      stage,
      fetched(
        '<urlset><url><loc>http://a.test/h#x</loc><lastmod>2026-01-01</lastmod><changefreq>hourly</changefreq></url><url><loc>http://a.test/later</loc><lastmod>2099-01-01</lastmod></url></urlset>',
        { contentType: 'application/xml', fetchedAt: Date.UTC(2026, 0, 2) },
      ),
    );
    expect(hinted.links).toEqual([
      {
        url: 'http://a.test/h',
        anchor: null,
        rel: null,
        source: 'sitemap',
        lastmod: Date.UTC(2026, 0, 1),
        changefreq: 'hourly',
      },
      { url: 'http://a.test/later', anchor: null, rel: null, source: 'sitemap', lastmod: null, changefreq: null },
    ]);
    const binary = await parse(
      stage,
      fetched(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0, 0, 1, 2, 3]), { contentType: 'text/html' }),
    );
    expect(binary).toMatchObject({ text: '', links: [], warnings: ['binary-content'] });
    expect(stage.warnings.get('binary-content')).toBe(1);
  });

  it('makes no second URL of a fragment, empty or not, from any kind of link', async () => {
    const stage = createLinkextractStage({ job, limits, followNofollow: false });
    const html = await parse(
      stage,
      fetched(
        '<head><meta http-equiv="refresh" content="5; url=refresh.html#"><link rel="next" href="next.html#">' +
          '<link rel="canonical" href="page#"></head><body><a href="#">top</a><a href="a.html#">A</a>' +
          '<map><area href="area.html#" alt="area"></map><iframe src="iframe.html#"></iframe>' +
          '<p>see http://a.test/text.html# too</p></body>',
      ),
    );
    expect(html.links.map((link) => `${link.source} ${link.url}`).sort()).toEqual([
      'a http://a.test/dir/a.html',
      'a http://a.test/dir/page',
      'area http://a.test/dir/area.html',
      'iframe http://a.test/dir/iframe.html',
      'link http://a.test/dir/next.html',
      'meta-refresh http://a.test/dir/refresh.html',
      'text http://a.test/text.html',
    ]);
    expect(html.canonicalUrl).toBe('http://a.test/dir/page');
    const frameset = await parse(stage, fetched('<frameset><frame src="frame.html#"></frameset>'));
    expect(frameset.links.map((link) => link.url)).toEqual(['http://a.test/dir/frame.html']);
  });

  it('makes no second URL of a fragment, empty or not, from feed and sitemap entries', async () => {
    const stage = createLinkextractStage({ job, limits, followNofollow: false });
    const feed = await parse(
      stage,
      fetched('<rss><channel><item><link>http://a.test/i#</link></item></channel></rss>', {
        contentType: 'application/rss+xml',
      }),
    );
    expect(feed.links.map((link) => link.url)).toEqual(['http://a.test/i']);
    const sitemap = await parse(
      stage,
      fetched('<urlset><url><loc>http://a.test/s#</loc></url><url><loc>http://a.test/s</loc></url></urlset>', {
        contentType: 'application/xml',
      }),
    );
    expect(sitemap.links.map((link) => link.url)).toEqual(['http://a.test/s']);
  });

  it('reports a processing failure as the URL’s status', () => {
    const stage = createLinkextractStage({ job, limits, followNofollow: false });
    const [status] = stage.onGiveUp!(fetched('<p>x</p>'), new Error('boom'));
    expect(status).toMatchObject({
      topic: 'crawl.status',
      value: { outcome: 'processing_failed', errorMessage: 'boom', retriable: false },
    });
  });
});

describe('link extraction on a parsing thread that dies', () => {
  it("turns the thread's death into a retriable error of that page alone: retried on a fresh thread, then a processing_failed status; the other pages pass", async () => {
    const bus = new InProcessBus();
    await bus.createTopics(loadCatalog().topics);
    const extractor = createDocumentExtractor(
      1,
      new URL('./documents/fixtures/dying-extract-worker.mjs', import.meta.url),
    );
    const stage = createLinkextractStage({
      job: parseCrawlJob({ seeds: ['http://a.test/'] }),
      limits,
      followNofollow: false,
      extractor,
    });
    const runner = new StageRunner({
      stage,
      bus,
      codec,
      producer: new BatchingProducer(bus.producer()),
      groupId: 'linkextract',
      logger: silentLogger(),
      concurrency: 4,
      maxAttempts: 2,
      retryBaseMs: 1,
      commitIntervalMs: 20,
    });
    const parsed: ParsedPage[] = [];
    const statuses: StatusUpdate[] = [];
    const tap = bus.consumer({ groupId: 'tap', topics: [Topics.parsed, Topics.status], fromBeginning: true });
    await tap.start({
      onMessage: async (message) => {
        if (message.topic === Topics.parsed) parsed.push(codec.decode(message.value));
        else statuses.push(codec.decode(message.value));
      },
    });
    await runner.start();
    try {
      await bus.producer().send(
        Topics.fetched,
        ['/one', '/die', '/two'].map((path) => {
          const page = `<html><head><title>${path}</title></head><body><a href="/next${path}">next</a></body></html>`;
          const url = `http://a.test${path}`;
          return { key: 'a.test', value: codec.encode(Schemas.FetchResult, fetched(page, { url, finalUrl: url })) };
        }),
      );
      // Each attempt starts a thread that loads the build: seconds on a busy machine.
      await waitFor(() => parsed.length === 2 && statuses.length === 1, 45_000, 20, 'two pages and one status');
      expect(parsed.map((page) => page.title).sort()).toEqual(['/one', '/two']);
      expect(parsed.every((page) => page.links.length === 1)).toBe(true);
      expect(statuses[0]).toMatchObject({
        url: 'http://a.test/die',
        outcome: 'processing_failed',
        errorCode: ErrorCode.WORKER_CRASHED,
      });
      expect(statuses[0]!.errorMessage).toMatch(/^worker linkextract-parse-\d+ stopped: exit code 7$/);
      await waitFor(
        async () => (await bus.lag('linkextract', [Topics.fetched])).every((lag) => lag.lag === 0),
        10_000,
        20,
        'every message committed',
      );
    } finally {
      await runner.stop();
      await extractor.close();
      await tap.stop();
      await bus.close();
    }
  }, 60_000);
});
