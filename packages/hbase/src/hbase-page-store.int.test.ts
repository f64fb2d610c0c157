import { randomBytes, randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { silentLogger, type PageStore } from '@crawler/core';
import { describePageStoreContract } from '@crawler/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CellEncoding } from './cell-codec.js';
import { createHbasePageStore, pageRowKey } from './hbase-page-store.js';
import { createHbaseRestClient } from './rest-client.js';
import { dropTable, localHbaseConfig, samplePage } from './testing/index.js';

describePageStoreContract('hbase (REST gateway)', async () => {
  const config = localHbaseConfig();
  let current: PageStore = await createHbasePageStore(config, silentLogger());
  return {
    store: current,
    reopen: async () => {
      await current.close();
      current = await createHbasePageStore(config, silentLogger());
      return current;
    },
    cleanup: () => dropTable(config),
  };
});

describe('HBase page store', () => {
  const config = localHbaseConfig({ HBASE_MAX_VERSIONS: '3' });
  const client = createHbaseRestClient({ url: config.restUrl, requestTimeoutMs: 60_000 });
  let store: PageStore;
  const site = () => `site-${randomUUID().slice(0, 8)}.test`;

  beforeAll(async () => {
    store = await createHbasePageStore(config, silentLogger());
  });
  afterAll(async () => {
    await store.close();
    await dropTable(config);
  });

  it('keeps only the newest HBASE_MAX_VERSIONS fetches of a page', async () => {
    const url = `http://${site()}/often-changed`;
    for (const fetchedAt of [1000, 2000, 3000]) await store.put([samplePage(url, fetchedAt)]);
    await store.put([samplePage(url, 5000), samplePage(url, 4000)]);
    const pages = await store.get(url, { versions: 10 });
    expect(pages.map((page) => page.fetchedAt)).toEqual([5000, 4000, 3000]);
    const cells = await client.getRow(config.table, pageRowKey(url), { column: 'p:body', versions: 100 });
    expect(cells.map((cell) => cell.timestamp)).toEqual([5000, 4000, 3000]);
  });

  it('stores a page put twice in one batch once', async () => {
    const url = `http://${site()}/twice`;
    await store.put([samplePage(url, 1000), samplePage(url, 1000)]);
    expect(await store.get(url, { versions: 10 })).toHaveLength(1);
  });

  it('round-trips a 5 MB body, stored gzip-compressed in a smaller cell', async () => {
    const url = `http://${site()}/long-article`;
    const paragraph = '<p>The quick brown fox jumps over the lazy dog, again and again, in many words.</p>\n';
    const body = Buffer.from(paragraph.repeat(Math.ceil(5_000_000 / paragraph.length)).slice(0, 5_000_000));
    await store.put([samplePage(url, 7000, { body, text: paragraph.repeat(20_000) })]);
    const [read] = await store.get(url);
    expect(read?.body.equals(body)).toBe(true);
    expect(read?.bodyEncoding).toBe('identity');
    expect(read?.bodyLength).toBe(5_000_000);
    const [stored] = await client.getRow(config.table, pageRowKey(url), { column: 'p:body', versions: 1 });
    expect(stored?.value[0]).toBe(CellEncoding.gzip);
    expect(stored!.value.length).toBeLessThan(body.length / 10);
  });

  it('stores an incompressible 5 MB body as it is and reads it back byte-exact', async () => {
    const url = `http://${site()}/photo.jpg`;
    const body = randomBytes(5_000_000);
    await store.put([samplePage(url, 7000, { body })]);
    expect((await store.get(url))[0]?.body.equals(body)).toBe(true);
    const [stored] = await client.getRow(config.table, pageRowKey(url), { column: 'p:body', versions: 1 });
    expect(stored?.value[0]).toBe(CellEncoding.identity);
  });

  it('round-trips non-UTF-8 binary bodies byte-exact, small and compressed', async () => {
    const small = Buffer.from([
      0xff, 0xfe, 0x00, 0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1, 0xf0, 0x28, 0x8c, 0xbc, 0x80, 0x00, 0x0d, 0x0a,
    ]);
    const large = Buffer.concat(Array.from({ length: 2000 }, () => small));
    for (const [name, body] of [
      ['small', small],
      ['large', large],
    ] as const) {
      const url = `http://${site()}/${name}.bin`;
      await store.put([samplePage(url, 1000, { body, contentType: 'application/octet-stream' })]);
      const [read] = await store.get(url);
      expect(read?.body.equals(body), name).toBe(true);
    }
  });

  it('returns a body that arrived gzip-compressed decoded, with bodyEncoding identity', async () => {
    const url = `http://${site()}/gzipped`;
    const body = Buffer.from('<html>'.concat('<p>gzip on the wire</p>'.repeat(1000), '</html>'));
    await store.put([samplePage(url, 1000, { body: gzipSync(body), bodyEncoding: 'gzip', bodyLength: body.length })]);
    const [read] = await store.get(url);
    expect(read?.bodyEncoding).toBe('identity');
    expect(read?.body.equals(body)).toBe(true);
    expect(read?.bodyLength).toBe(body.length);
  });

  it('sorts one site’s pages together: a SURT range scan returns the host and its subdomains, nothing else', async () => {
    const label = `site-${randomUUID().slice(0, 8)}`;
    const ours = [
      `http://${label}.test/`,
      `http://${label}.test/b/page`,
      `http://www.${label}.test/a`,
      `https://news.${label}.test/z?q=1`,
    ];
    // Hosts that merely start alike, the same name under another TLD, and another port (a separate site in SURT terms).
    const others = [
      `http://${label}x.test/`,
      `http://${label}-2.test/`,
      `http://a${label}.test/`,
      `http://${label}.example/`,
      `http://${label}.test:8080/port`,
    ];
    await store.put([...others, ...ours].map((url, i) => samplePage(url, 1000 + i)));
    const site = `test,${label}`;
    // ')' ends the host and ',' starts a subdomain; both sort below '-', the first byte after them a longer host name can have.
    const rows = await client.scan(config.table, { startRow: `${site})`, endRow: `${site}-`, column: 'p:meta' });
    expect(rows.map((row) => row.key)).toEqual([
      `${site})/`,
      `${site})/b/page`,
      `${site},news)/z?q=1`,
      `${site},www)/a`,
    ]);
  });

  it('keeps http and https of one page in one row but returns only the asked URL’s versions', async () => {
    const host = site();
    const http = `http://${host}/same`;
    const https = `https://${host}/same`;
    expect(pageRowKey(http)).toBe(pageRowKey(https));
    await store.put([samplePage(http, 1000), samplePage(https, 2000), samplePage(https, 3000)]);
    expect((await store.get(http, { versions: 2 })).map((page) => [page.url, page.fetchedAt])).toEqual([[http, 1000]]);
    expect((await store.get(https, { versions: 1 })).map((page) => [page.url, page.fetchedAt])).toEqual([
      [https, 3000],
    ]);
    expect((await store.get(http)).map((page) => page.fetchedAt)).toEqual([1000]);
  });
});
