import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { ExtractLimits } from '../extract-html.js';
import { documentKind } from './document-kind.js';
import { extractDocument } from './extract-document.js';
import { extractFeed } from './feed-document.js';
import { gunzipCapped } from './gunzip-capped.js';
import { extractSitemap } from './sitemap-document.js';
import { extractPlainText } from './text-document.js';

const limits: ExtractLimits = {
  maxLinks: 100,
  maxAnchorChars: 50,
  maxTextChars: 10_000,
  maxElements: 10_000,
  maxNesting: 256,
  maxParseMs: 5000,
  maxMarkdownChars: 20_000,
};
const options = { limits, maxInputBytes: 64 * 1024, extract: { textLinks: true, feedLinks: false, robotsAgent: null } };
const hrefs = (links: { href: string }[]) => links.map((link) => link.href);

const rss = `<?xml version="1.0"?><rss version="2.0"><channel><title>News</title><link>https://a.test/</link>
  <atom:link href="https://a.test/feed" rel="self" xmlns:atom="http://www.w3.org/2005/Atom"/>
  <item><title>One &amp; only</title><link>https://a.test/1</link><guid>https://a.test/1</guid></item>
  <item><title>Two</title><guid isPermaLink="true">https://a.test/2</guid></item>
  <item><title>Three</title><guid isPermaLink="false">tag:a.test,3</guid></item></channel></rss>`;
const atom = `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Blog</title><link rel="self" href="https://b.test/atom.xml"/>
  <link href="https://b.test/"/><entry><title>E1</title><link rel="alternate" href="https://b.test/e1"/><link rel="enclosure" href="https://b.test/e1.mp3"/><id>urn:x</id></entry></feed>`;
const urlset = `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url><loc> https://a.test/p?x=1&amp;y=2 </loc><lastmod>2024-01-01</lastmod><image:image><image:loc>https://a.test/i.jpg</image:loc></image:image></url><url><loc>https://a.test/q</loc></url></urlset>`;
const index = `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://a.test/s1.xml.gz</loc></sitemap></sitemapindex>`;

describe('non-HTML documents', () => {
  it('reads RSS items (link, else permalink guid) with titles as anchors, and the channel link', () => {
    const result = extractFeed(rss, 100, 50);
    expect(result.title).toBe('News');
    expect(result.links.map((link) => [link.href, link.anchor, link.source])).toEqual([
      ['https://a.test/1', 'One & only', 'feed'],
      ['https://a.test/2', 'Two', 'feed'],
      ['https://a.test/', 'News', 'feed'],
    ]);
  });

  it('reads Atom entries, skipping self and enclosure links', () => {
    expect(hrefs(extractFeed(atom, 100, 50).links)).toEqual(['https://b.test/e1', 'https://b.test/']);
  });

  it('reads sitemap urls and index entries, ignoring image locations', () => {
    expect(extractSitemap(urlset, 100).links.map((link) => [link.href, link.rel])).toEqual([
      ['https://a.test/p?x=1&y=2', null],
      ['https://a.test/q', null],
    ]);
    expect(extractSitemap(index, 100).links.map((link) => [link.href, link.rel, link.source])).toEqual([
      ['https://a.test/s1.xml.gz', 'sitemap', 'sitemap'],
    ]);
    // One kept link per page is collected from up to RAW_LINKS_PER_KEPT_LINK distinct ones.
    const many = `<urlset>${Array.from({ length: 6 }, (_, i) => `<url><loc>https://a.test/${i}</loc></url>`).join('')}</urlset>`;
    const capped = extractSitemap(many, 1);
    expect([capped.links.length, capped.linksOverflow, capped.warnings]).toEqual([4, 2, ['links-capped']]);
  });

  it('gives each sitemap link its entry’s lastmod and changefreq, whatever their order, and null for unusable ones', () => {
    const fetchedAt = Date.UTC(2026, 0, 10);
    const xml = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><changefreq>Hourly</changefreq><lastmod>2025-12-31T23:00:00+01:00</lastmod><loc>https://a.test/h</loc></url>
      <url><loc>https://a.test/y</loc><lastmod>2020-05</lastmod><changefreq>yearly</changefreq></url>
      <url><loc>https://a.test/bad</loc><lastmod>last tuesday</lastmod><changefreq>often</changefreq></url>
      <url><loc>https://a.test/future</loc><lastmod>2031-01-01</lastmod></url>
      <url><loc>https://a.test/img</loc><image:image xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"><image:loc>https://a.test/i.jpg</image:loc><lastmod>2025-01-01</lastmod></image:image></url></urlset>`;
    expect(extractSitemap(xml, 100, fetchedAt).links.map((link) => [link.href, link.lastmod, link.changefreq])).toEqual(
      [
        ['https://a.test/h', Date.UTC(2025, 11, 31, 22), 'hourly'],
        ['https://a.test/y', Date.UTC(2020, 4, 1), 'yearly'],
        ['https://a.test/bad', null, null],
        ['https://a.test/future', null, null],
        ['https://a.test/img', null, null],
      ],
    );
    const indexed = extractSitemap(
      '<sitemapindex><sitemap><loc>https://a.test/s1.xml</loc><lastmod>2025-06-01</lastmod></sitemap></sitemapindex>',
      100,
      fetchedAt,
    );
    expect(indexed.links).toEqual([
      {
        href: 'https://a.test/s1.xml',
        anchor: null,
        rel: 'sitemap',
        source: 'sitemap',
        lastmod: Date.UTC(2025, 5, 1),
        changefreq: null,
      },
    ]);
    const cut = extractSitemap(
      '<urlset><url><loc>https://a.test/a</loc><changefreq>daily</changefreq></url><url><loc>https://a.test/b</loc><changefreq>weekly</chan',
      100,
      fetchedAt,
    );
    expect(cut.links.map((link) => [link.href, link.changefreq])).toEqual([
      ['https://a.test/a', 'daily'],
      ['https://a.test/b', null],
    ]);
  });

  it('reads URLs out of plain text', () => {
    const result = extractPlainText('Docs at https://a.test/docs.\nMirror: www.b.test', 100, 1000);
    expect(hrefs(result.links)).toEqual(['https://a.test/docs', 'http://www.b.test']);
    expect(result.text).toBe('Docs at https://a.test/docs.\nMirror: www.b.test');
  });

  it('tells documents apart by media type, root element and bytes', () => {
    expect(documentKind('text/html', Buffer.from('<p>x'))).toBe('html');
    expect(documentKind(null, Buffer.from('<!doctype html><p>x'))).toBe('html');
    expect(documentKind('application/xml', Buffer.from(urlset))).toBe('sitemap');
    expect(documentKind('text/xml', Buffer.from(`<?xml version="1.0"?>\n<!-- c -->\n${rss.slice(21)}`))).toBe('feed');
    expect(documentKind('application/atom+xml', Buffer.from(atom))).toBe('feed');
    expect(documentKind('text/html', Buffer.from(index))).toBe('sitemap');
    expect(documentKind('application/xml', Buffer.from('<config/>'))).toBe('other');
    expect(documentKind('text/plain', Buffer.from('hello'))).toBe('text');
    expect(documentKind('application/x-gzip', gzipSync(urlset))).toBe('gzip');
    expect(documentKind('text/html', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]))).toBe(
      'binary',
    );
    expect(documentKind('text/html', Buffer.from('\ufeff<p>hi</p>', 'utf16le'), 'utf-16le')).toBe('html');
  });

  it('inflates gzipped sitemaps, index files included', async () => {
    const plain = await extractDocument(
      { body: gzipSync(urlset), mediaType: 'application/gzip', charset: null },
      options,
    );
    expect([plain.kind, hrefs(plain.extraction.links)]).toEqual([
      'sitemap',
      ['https://a.test/p?x=1&y=2', 'https://a.test/q'],
    ]);
    const nested = await extractDocument(
      { body: gzipSync(index), mediaType: 'application/octet-stream', charset: null },
      options,
    );
    expect(nested.extraction.links[0]!.rel).toBe('sitemap');
  });

  it('bounds a gzip bomb and keeps what inflated before a corrupt tail', async () => {
    const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024, 0x20));
    const inflated = await gunzipCapped(bomb, 1024 * 1024);
    expect([inflated.capped, inflated.bytes.length]).toEqual([true, 1024 * 1024]);
    const cut = gzipSync(Buffer.from(urlset.repeat(50)));
    const partial = await gunzipCapped(cut.subarray(0, cut.length - 20), 1024 * 1024);
    expect(partial.corrupt).toBe(true);
    const document = await extractDocument({ body: bomb, mediaType: 'application/gzip', charset: null }, options);
    expect(document.extraction.warnings).toEqual(['gzip-capped', 'unsupported-document']);
  });

  it('refuses binary bodies served as HTML, and caps oversized input, naming the reason', async () => {
    const binary = await extractDocument(
      { body: Buffer.from([0x25, 0x50, 0x44, 0x46, 0, 1, 2, 3, 0xff]), mediaType: 'text/html', charset: null },
      options,
    );
    expect([binary.kind, binary.extraction.links, binary.extraction.text, binary.extraction.warnings]).toEqual([
      'binary',
      [],
      '',
      ['binary-content'],
    ]);
    const big = await extractDocument(
      {
        body: Buffer.from(`<p>${'x'.repeat(100_000)}</p><a href="/late">late</a>`),
        mediaType: 'text/html',
        charset: null,
      },
      options,
    );
    expect(big.extraction.warnings).toContain('input-capped');
    expect(big.extraction.links).toEqual([]);
  });

  it('decodes XML with the charset its declaration names', async () => {
    const latin1 = Buffer.from(
      `<?xml version="1.0" encoding="ISO-8859-1"?><rss><channel><item><title>Caf\xe9</title><link>https://a.test/c</link></item></channel></rss>`,
      'latin1',
    );
    const document = await extractDocument({ body: latin1, mediaType: 'application/rss+xml', charset: null }, options);
    expect(document.extraction.links[0]!.anchor).toBe('Café');
  });
});
