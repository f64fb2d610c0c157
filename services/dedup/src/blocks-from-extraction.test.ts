import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import {
  Codec,
  parseCrawlJob,
  schemasDir,
  Schemas,
  type FetchResult,
  type ParsedPage,
  type StageContext,
} from '@crawler/core';
import { readBlocks } from '@crawler/core/html';
import { sampleMessages } from '@crawler/core/testing';
import { createLinkextractStage, extractLimitsOf, loadLinkextractConfig } from '@crawler/linkextract';
import { startTestWeb } from '@crawler/testweb';
import { describe, expect, it } from 'vitest';
import { analyzePage } from './analyze-page.js';

// Link extraction's single pass hands dedup the page's blocks on crawl.parsed (ParsedPage v5);
// older messages and stored pages have none, and dedup reads them from the body. Both must give
// the same blocks, or a site's template would depend on the path a page took. Hundreds of whole
// pages go through link extraction here: seconds alone, more on a loaded machine.

const fixtures = new URL('../../../fixtures/', import.meta.url);
const stage = createLinkextractStage({
  job: parseCrawlJob({ seeds: ['http://fixture.test/'] }),
  limits: extractLimitsOf(loadLinkextractConfig({ env: {} })),
  followNofollow: false,
});

interface FixturePage {
  url: string;
  body: Buffer;
  charset: string | null;
}

async function parsedOf(page: FixturePage): Promise<ParsedPage> {
  const fetched: FetchResult = {
    ...sampleMessages[Schemas.FetchResult],
    url: page.url,
    finalUrl: page.url,
    host: new URL(page.url).host,
    contentType: 'text/html',
    charset: page.charset,
    body: page.body,
    bodyEncoding: 'identity',
    bodyLength: page.body.length,
  };
  const [emission] = await stage.handle(fetched, {} as StageContext);
  return emission!.value as ParsedPage;
}

async function expectSameBlocks(pages: FixturePage[]): Promise<void> {
  for (const page of pages) {
    const parsed = await parsedOf(page);
    expect(parsed.pageBlocks, page.url).not.toBeNull();
    const fromMessage = analyzePage(parsed, null, 'md5');
    const fromBody = analyzePage({ ...parsed, pageBlocks: null }, null, 'md5');
    expect(fromMessage.blocks, page.url).toEqual(fromBody.blocks);
    expect(fromMessage.pageChars, page.url).toBe(fromBody.pageChars);
  }
}

describe('the blocks on crawl.parsed are the ones dedup reads from the body', () => {
  it('on the real-web bed fixture pages (Python, PostgreSQL and Git documentation)', async () => {
    const pages = JSON.parse(
      brotliDecompressSync(readFileSync(new URL('realweb-bed-pages/bed-pages.json.br', fixtures))).toString('utf8'),
    ) as { url: string; html: string }[];
    expect(pages.length).toBeGreaterThan(50);
    await expectSameBlocks(pages.map((page) => ({ url: page.url, body: Buffer.from(page.html), charset: 'utf-8' })));
  }, 120_000);

  it('on the article extraction benchmark pages (news sites, many encodings)', async () => {
    const dir = new URL('article-extraction-benchmark/html/', fixtures);
    const files = readdirSync(dir).filter((name) => name.endsWith('.html.gz'));
    expect(files.length).toBeGreaterThan(100);
    await expectSameBlocks(
      files.map((name) => ({
        url: `http://articles.test/${name.slice(0, 16)}`,
        body: gunzipSync(readFileSync(new URL(name, dir))),
        charset: null,
      })),
    );
  }, 120_000);

  it('a message written before ParsedPage v5 decodes without blocks, and dedup reads them from its body', () => {
    const old = new Codec().decode<ParsedPage>(
      readFileSync(join(schemasDir(), 'samples', 'crawler.ParsedPage.v4.bin')),
    );
    expect(old.pageBlocks).toBeNull();
    const blocks = readBlocks(old.body.toString('utf8'));
    expect(blocks.blocks.length).toBeGreaterThan(0);
    expect(analyzePage(old, null, 'md5').blocks).toEqual(blocks.blocks);
  });

  it('on the test web, legacy charsets included', async () => {
    const web = await startTestWeb({ seed: 5 });
    try {
      const truth = web.groundTruth();
      const charsets = new Map(truth.charsets.map((page) => [page.url, page.charset as string]));
      const urls = [...new Set([...truth.pages.slice(0, 150), ...charsets.keys()])];
      const pages: FixturePage[] = [];
      for (const url of urls) {
        const response = await fetch(url, { redirect: 'manual' });
        if (response.status !== 200 || !response.headers.get('content-type')?.startsWith('text/html')) continue;
        pages.push({ url, body: Buffer.from(await response.arrayBuffer()), charset: charsets.get(url) ?? null });
      }
      expect(pages.length).toBeGreaterThan(100);
      expect(pages.filter((page) => page.charset !== null).length).toBe(charsets.size);
      await expectSameBlocks(pages);
    } finally {
      await web.close();
    }
  }, 120_000);
});
