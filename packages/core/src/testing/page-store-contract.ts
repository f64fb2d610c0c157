import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredPage } from '../messages.js';
import { Schemas } from '../messages.js';
import type { PageStore, RedirectCapture, Revisit } from '../ports/page-store.js';
import { surtKey } from '../url/surt.js';
import { urlId } from '../url/url-id.js';
import { sampleMessages } from './sample-messages.js';

export interface PageStoreContractHarness {
  store: PageStore;
  reopen(): Promise<PageStore>;
  cleanup?(): Promise<void>;
}

function page(
  url: string,
  fetchedAt: number,
  text: string,
  body = Buffer.from(`<html><body>${text}</body></html>`),
): StoredPage {
  return {
    ...sampleMessages[Schemas.StoredPage],
    url,
    urlId: urlId(url),
    surt: surtKey(url),
    host: new URL(url).host,
    finalUrl: url,
    fetchedAt,
    text,
    markdown: `## ${text}\n\n- [next](${url}/next)\n\n| a | b |\n| --- | --- |\n| 1 | 2 |`,
    body,
    bodyLength: body.length,
    fields: { headline: [text] },
    links: [{ url: `${url}/next`, anchor: 'next', rel: null, source: 'a', lastmod: null, changefreq: null }],
  };
}

function revisit(url: string, fetchedAt: number, refersTo: { url: string; date: number }): Revisit {
  return {
    url,
    surt: surtKey(url),
    jobId: 'contract',
    fetchedAt,
    httpStatus: 200,
    headers: { 'content-type': 'text/html', etag: '"v1"' },
    payloadDigest: 'sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ',
    refersToUrl: refersTo.url,
    refersToDate: refersTo.date,
  };
}

function redirect(url: string, fetchedAt: number, location: string): RedirectCapture {
  const body = Buffer.from(`<html><body>Moved to ${location}</body></html>`);
  return {
    url,
    surt: surtKey(url),
    jobId: 'contract',
    fetchedAt,
    httpStatus: 301,
    headers: { location, 'content-type': 'text/html', 'content-length': String(body.length) },
    requestHeaders: { 'user-agent': 'contract-test' },
    location,
    body,
    truncated: false,
  };
}

/** The behaviour every PageStore adapter must have. */
export function describePageStoreContract(adapter: string, create: () => Promise<PageStoreContractHarness>): void {
  describe(`PageStore contract: ${adapter}`, () => {
    let harness: PageStoreContractHarness;
    let store: PageStore;
    const url = () => `http://pages-${randomUUID().slice(0, 8)}.contract.test/article`;
    beforeAll(async () => {
      harness = await create();
      store = harness.store;
    });
    afterAll(async () => {
      await store.close();
      await harness.cleanup?.();
    });

    it('reads back what it stored, body, Markdown and fields included', async () => {
      const u = url();
      const written = page(u, 1_790_000_000_000, 'first version');
      await store.put([written]);
      const [read] = await store.get(u);
      expect(read?.body.equals(written.body)).toBe(true);
      expect(read).toMatchObject({
        url: u,
        surt: written.surt,
        text: 'first version',
        markdown: written.markdown,
        fields: { headline: ['first version'] },
        fetchedAt: 1_790_000_000_000,
        httpStatus: 200,
      });
      expect(read?.links).toEqual(written.links);
      expect(read?.requestHeaders).toEqual(written.requestHeaders);
    });

    it('reads back a page without Markdown (not HTML) as one', async () => {
      const u = url();
      await store.put([{ ...page(u, 1_790_000_000_000, 'plain'), markdown: null }]);
      expect((await store.get(u))[0]).toMatchObject({ text: 'plain', markdown: null });
    });

    it('keeps versions newest first and caps how many are returned', async () => {
      const u = url();
      await store.put([page(u, 1000, 'v1')]);
      await store.put([page(u, 3000, 'v3'), page(u, 2000, 'v2')]);
      expect((await store.get(u, { versions: 10 })).map((version) => version.text)).toEqual(['v3', 'v2', 'v1']);
      expect((await store.get(u, { versions: 2 })).map((version) => version.text)).toEqual(['v3', 'v2']);
      expect((await store.get(u)).map((version) => version.text)).toEqual(['v3']);
    });

    it('stores a redelivered page (same url and fetch time) once', async () => {
      const u = url();
      await store.put([page(u, 5000, 'once')]);
      await store.put([page(u, 5000, 'once')]);
      expect(await store.get(u, { versions: 10 })).toHaveLength(1);
    });

    it('returns nothing for an unknown URL', async () => {
      expect(await store.get(url())).toEqual([]);
    });

    it('round-trips a large binary body', async () => {
      const u = url();
      const body = Buffer.alloc(1_500_000);
      for (let i = 0; i < body.length; i++) body[i] = (i * 7919) & 0xff;
      await store.put([page(u, 7000, 'big', body)]);
      expect((await store.get(u))[0]?.body.equals(body)).toBe(true);
    });

    it('keeps revisits apart from pages, newest first, a redelivered one once', async () => {
      const u = url();
      const original = url();
      await store.put([page(u, 1000, 'original')]);
      await store.putRevisits([revisit(u, 2000, { url: u, date: 1000 })]);
      await store.putRevisits([
        revisit(u, 3000, { url: original, date: 500 }),
        revisit(u, 2000, { url: u, date: 1000 }),
      ]);
      expect((await store.get(u, { versions: 10 })).map((version) => version.text)).toEqual(['original']);
      expect(await store.getRevisits(u, { versions: 10 })).toEqual([
        revisit(u, 3000, { url: original, date: 500 }),
        revisit(u, 2000, { url: u, date: 1000 }),
      ]);
      expect((await store.getRevisits(u)).map((entry) => entry.fetchedAt)).toEqual([3000]);
      expect(await store.getRevisits(original)).toEqual([]);
    });

    it('keeps redirects apart from pages and revisits, body and headers as served, a redelivered one once', async () => {
      const u = url();
      const target = url();
      await store.put([page(target, 1000, 'target')]);
      await store.putRedirects([redirect(u, 1000, target)]);
      await store.putRedirects([redirect(u, 4000, target), redirect(u, 1000, target)]);
      expect(await store.get(u)).toEqual([]);
      expect(await store.getRevisits(u)).toEqual([]);
      expect(await store.getRedirects(target)).toEqual([]);
      expect((await store.get(target)).map((version) => version.text)).toEqual(['target']);
      expect(await store.getRedirects(u, { versions: 10 })).toEqual([
        redirect(u, 4000, target),
        redirect(u, 1000, target),
      ]);
      expect((await store.getRedirects(u)).map((entry) => entry.fetchedAt)).toEqual([4000]);
    });

    it('keeps pages, revisits and redirects across a restart', async () => {
      const u = url();
      const copy = url();
      const moved = url();
      await store.put([page(u, 9000, 'durable')]);
      await store.putRevisits([revisit(copy, 9500, { url: u, date: 9000 })]);
      await store.putRedirects([redirect(moved, 9600, u)]);
      await store.flush();
      store = await harness.reopen();
      expect((await store.get(u))[0]?.text).toBe('durable');
      expect(await store.getRevisits(copy)).toEqual([revisit(copy, 9500, { url: u, date: 9000 })]);
      expect(await store.getRedirects(moved)).toEqual([redirect(moved, 9600, u)]);
    });
  });
}
