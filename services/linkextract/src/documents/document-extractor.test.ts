import { gzipSync } from 'node:zlib';
import { startTestWeb, type TestWeb } from '@crawler/testweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractLimitsOf, loadLinkextractConfig } from '../config.js';
import { createDocumentExtractor, type DocumentExtractor, type EncodedDocumentInput } from './document-extractor.js';
import type { DocumentOptions } from './extract-document.js';

const options: DocumentOptions = {
  limits: extractLimitsOf(loadLinkextractConfig({ env: {} })),
  extract: { textLinks: true, feedLinks: true, robotsAgent: 'crawler' },
  maxInputBytes: 8 << 20,
};

/** Each served document as the bus carries it: gzipped, or as it came (a view into a larger buffer, as a decoded message's is). */
async function documents(web: TestWeb): Promise<EncodedDocumentInput[]> {
  const truth = web.groundTruth();
  const urls = [
    ...truth.pages.slice(0, 40),
    ...truth.charsets.map((c) => c.url),
    ...truth.sitemaps,
    ...truth.nonHtml.map((n) => n.url),
  ];
  const out: EncodedDocumentInput[] = [];
  for (const [i, url] of urls.entries()) {
    const response = await fetch(url, { redirect: 'manual' });
    const raw = Buffer.from(await response.arrayBuffer());
    const contentType = response.headers.get('content-type');
    const framed = Buffer.concat([Buffer.from('message head'), raw, Buffer.from('tail')]);
    const gzip = i % 2 === 0;
    out.push({
      body: gzip ? gzipSync(raw) : framed.subarray(12, 12 + raw.length),
      bodyEncoding: gzip ? 'gzip' : 'identity',
      mediaType: contentType?.split(';')[0]?.trim() ?? null,
      charset: null,
      fetchedAt: Date.UTC(2026, 10, 26),
      url,
      keepSource: i % 3 === 0,
    });
  }
  return out;
}

describe('document extraction on threads', () => {
  let web: TestWeb;
  let inputs: EncodedDocumentInput[];
  const extractors: DocumentExtractor[] = [];
  beforeAll(async () => {
    web = await startTestWeb({ seed: 3 });
    inputs = await documents(web);
  });
  afterAll(async () => {
    await Promise.all(extractors.map((extractor) => extractor.close()));
    await web.close();
  });

  it('finds on two threads, pages in flight at once, what it finds in place, and leaves the caller its bytes', async () => {
    const inPlace = createDocumentExtractor(0);
    const threaded = createDocumentExtractor(2);
    extractors.push(threaded);
    expect(inputs.length).toBeGreaterThan(45);
    const before = inputs.map((input) => Buffer.from(input.body));
    const expected = await Promise.all(inputs.map((input) => inPlace.extract(input, options)));
    const found = await Promise.all(inputs.map((input) => threaded.extract(input, options)));
    expect(threaded.threads).toBe(2);
    expect(new Set(expected.map((document) => document.kind)).size).toBeGreaterThan(1);
    found.forEach((document, i) => {
      const { source, ...rest } = expected[i]!;
      expect(document, inputs[i]!.url).toEqual(inputs[i]!.keepSource ? { ...rest, source } : { ...rest, source: '' });
      expect(inputs[i]!.body.equals(before[i]!)).toBe(true);
    });
    expect(found.some((document) => document.extraction.links.length > 0)).toBe(true);
  });
});
