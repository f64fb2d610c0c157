import { parseCrawlJob } from '@crawler/core';
import { startTestWeb, type GroundTruth, type TestWeb } from '@crawler/testweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExtractLimits } from './extract-html.js';
import type { FrameFetcher } from './frame-splicing.js';
import { createPageParser, type PageInput } from './page-parser.js';

// Link extraction against pages served by the project's test web, whose truth says what is there.

const limits: ExtractLimits = {
  maxLinks: 5000,
  maxAnchorChars: 200,
  maxTextChars: 1_000_000,
  maxElements: 200_000,
  maxNesting: 256,
  maxParseMs: 5000,
  maxMarkdownChars: 20_000,
};

async function get(url: string): Promise<PageInput & { html: string }> {
  const response = await fetch(url, { redirect: 'manual' });
  const body = Buffer.from(await response.arrayBuffer());
  const headers = Object.fromEntries(response.headers);
  return {
    body,
    html: body.toString('latin1'),
    finalUrl: url,
    depth: 0,
    mediaType: headers['content-type']?.split(';')[0]?.trim() ?? null,
    charset: null,
    headers,
  };
}

/** Frames fetched straight over HTTP: the test stands in for the fetcher. */
const httpFrames: FrameFetcher = {
  async fetchFrame(url, signal) {
    const response = await fetch(url, { signal });
    if (!response.ok) return null;
    return { finalUrl: url, mediaType: 'text/html', charset: null, body: Buffer.from(await response.arrayBuffer()) };
  },
};

describe('link extraction on the test web', () => {
  let web: TestWeb;
  let truth: GroundTruth;
  beforeAll(async () => {
    web = await startTestWeb({ seed: 3 });
    truth = web.groundTruth();
  });
  afterAll(() => web.close());
  const origin = (name: string) => truth.hosts.find((host) => host.name === name)!.origin;

  it('keeps the <main> paragraphs of noisy news pages and none of the noise', async () => {
    const parse = createPageParser({
      job: parseCrawlJob({ seeds: truth.seeds }),
      limits,
      followNofollow: false,
      maxInputBytes: 8 << 20,
    });
    const articles = truth.pages
      .filter((url) => url.startsWith(origin('news')) && /\/article\/\d+$/.test(url))
      .slice(0, 5);
    expect(articles.length).toBeGreaterThan(0);
    for (const url of articles) {
      const page = await get(url);
      const parsed = await parse(page);
      const main = page.html.match(/<main>([\s\S]*?)<\/main>/)![1]!;
      const paragraphs = [...main.matchAll(/<p>([^<]*)<\/p>/g)].map((match) => decode(match[1]!));
      expect(parsed.text.split('\n'), url).toEqual(paragraphs);
      expect(parsed.text).not.toMatch(/Advertisement|visitor no\.|Updated|Related articles/);
    }
  });

  it('decodes windows-1252 pages with the euro sign and curly quotes intact', async () => {
    const parse = createPageParser({ job: parseCrawlJob({}), limits, followNofollow: false, maxInputBytes: 8 << 20 });
    const pages = truth.charsets.filter((c) => c.charset === 'windows-1252');
    expect(pages).toHaveLength(3);
    for (const c of pages) {
      const parsed = await parse({ ...(await get(c.url)), charset: c.charset });
      expect(parsed.charset).toBe('windows-1252');
      expect(parsed.text, c.url).toContain(c.sampleText);
      expect(parsed.text).toMatch(/[€“”‘’–—]/);
    }
  });

  it('splices a frameset’s frames into its text when the job asks for it', async () => {
    const url = `${origin('legacy')}/`;
    const page = await get(url);
    const plain = await createPageParser({
      job: parseCrawlJob({ seeds: truth.seeds }),
      limits,
      followNofollow: false,
      maxInputBytes: 8 << 20,
      frames: httpFrames,
    })(page);
    expect(plain.text).not.toContain('Pick a page.');
    expect(plain.links.filter((link) => link.source === 'frame').map((link) => new URL(link.url).pathname)).toEqual([
      '/nav.html',
      '/welcome.html',
    ]);
    const job = parseCrawlJob({ seeds: truth.seeds, extraction: { spliceFrames: true } });
    const spliced = await createPageParser({
      job,
      limits,
      followNofollow: false,
      maxInputBytes: 8 << 20,
      frames: httpFrames,
    })(page);
    expect(spliced.text).toContain('Pick a page.');
    expect(spliced.text).toContain('Welcome to the home page of the Regional Rail Society');
    expect(spliced.text.indexOf('Pick a page.')).toBeLessThan(spliced.text.indexOf('Welcome to the home page'));
  });

  it('reads the RSS and Atom feeds, the sitemaps and the plain text file', async () => {
    const job = parseCrawlJob({ seeds: truth.seeds, extraction: { feeds: true, sitemaps: true, plainText: true } });
    const parse = createPageParser({ job, limits, followNofollow: false, maxInputBytes: 8 << 20 });
    const inTruth = new Set(truth.pages);
    for (const feed of truth.nonHtml.filter((file) => /rss|atom/.test(file.contentType))) {
      const parsed = await parse(await get(feed.url));
      expect(parsed.kind, feed.url).toBe('feed');
      expect(parsed.links.length).toBeGreaterThan(2);
      expect(
        parsed.links.every((link) => link.source === 'feed' && inTruth.has(link.url)),
        feed.url,
      ).toBe(true);
    }
    for (const sitemap of truth.sitemaps) {
      const parsed = await parse(await get(sitemap));
      expect(parsed.kind, sitemap).toBe('sitemap');
      expect(parsed.links.length).toBeGreaterThan(0);
      expect(
        parsed.links.every((link) => inTruth.has(link.url) || link.rel === 'sitemap'),
        sitemap,
      ).toBe(true);
    }
    const text = truth.nonHtml.find((file) => file.contentType.startsWith('text/plain'))!;
    const parsed = await parse(await get(text.url));
    expect([parsed.kind, parsed.text]).toEqual([
      'text',
      'Regional Rail Society web site.\nMaintained by the webmaster since 1998.',
    ]);
  });

  it('finds the links the truth lists for tag soup, image maps and meta refresh', async () => {
    const parse = createPageParser({
      job: parseCrawlJob({ seeds: truth.seeds }),
      limits,
      followNofollow: false,
      maxInputBytes: 8 << 20,
    });
    const paths = async (path: string) =>
      (await parse(await get(`${origin('legacy')}${path}`))).links.map(
        (link) => `${link.source} ${new URL(link.url).pathname}`,
      );
    expect(await paths('/map.html')).toEqual(
      expect.arrayContaining(['area /history.html', 'area /timetable.html', 'area /members.html']),
    );
    expect(await paths('/refresh.html')).toContain('meta-refresh /new-home.html');
    expect(await paths('/broken.html')).toEqual(
      expect.arrayContaining(['a /guestbook.html', 'a /links.html', 'a /timetable.html']),
    );
  });
});

function decode(text: string): string {
  return text
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}
