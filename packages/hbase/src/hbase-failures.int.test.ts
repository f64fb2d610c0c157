import { randomBytes, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { BackendError, createLogger, CrawlerError, silentLogger, type Logger } from '@crawler/core';
import { freePort } from '@crawler/core/free-port';
import { afterAll, describe, expect, it } from 'vitest';
import { CellEncodingError, CellTooLargeError } from './hbase-errors.js';
import { createHbasePageStore, pageRowKey } from './hbase-page-store.js';
import { createHbaseRestClient } from './rest-client.js';
import { dropTable, localHbaseConfig, samplePage } from './testing/index.js';

function capturingLogger(): { logger: Logger; lines: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { logger: createLogger('test', { level: 'debug', destination: stream }), lines: () => chunks.join('') };
}

async function failure(work: Promise<unknown>): Promise<CrawlerError> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(CrawlerError);
  return error as CrawlerError;
}

const site = () => `http://fail-${randomUUID().slice(0, 8)}.test`;

describe('HBase page store failures', () => {
  const tables: ReturnType<typeof localHbaseConfig>[] = [];
  const freshConfig = (env: Record<string, string> = {}) => {
    const config = localHbaseConfig(env);
    tables.push(config);
    return config;
  };
  afterAll(async () => {
    for (const config of tables) await dropTable(config);
  });

  it('fails fast with a retriable BackendError when the gateway is unreachable (wrong port)', async () => {
    const config = localHbaseConfig({ HBASE_REST_URL: `http://127.0.0.1:${await freePort()}` });
    const started = Date.now();
    const error = await failure(createHbasePageStore(config, silentLogger()));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(error).toBeInstanceOf(BackendError);
    expect(error.retriable).toBe(true);
    expect(error.message).toMatch(/ECONNREFUSED/);
  });

  it('refuses a page whose cell stays over the size limit after compression, before any write', async () => {
    const config = freshConfig();
    const store = await createHbasePageStore(config, silentLogger());
    const small = samplePage(`${site()}/small`, 1000);
    const huge = samplePage(`${site()}/huge.bin`, 1000, { body: randomBytes(11 * 1024 * 1024) });
    const error = await failure(store.put([small, huge]));
    expect(error).toBeInstanceOf(CellTooLargeError);
    expect(error.retriable).toBe(false);
    expect(error.message).toContain(config.table);
    expect(error.message).toContain(pageRowKey(huge.url));
    expect(error.message.length).toBeLessThan(500);
    expect(await store.get(small.url)).toEqual([]);
    await store.close();
  });

  it('names table and row in a non-retriable error when the table was dropped underneath', async () => {
    const config = freshConfig();
    const store = await createHbasePageStore(config, silentLogger());
    await dropTable(config);
    const page = samplePage(`${site()}/orphan`, 1000, {
      body: Buffer.from('secret body text that must not appear in errors'),
    });
    const error = await failure(store.put([page]));
    expect(error).toBeInstanceOf(BackendError);
    expect(error.retriable).toBe(false);
    expect(error.message).toContain(config.table);
    expect(error.message).toContain(pageRowKey(page.url));
    expect(error.message).toMatch(/HTTP 404 .*TableNotFoundException/);
    expect(error.message).not.toContain('secret body text');
    await store.close();
  });

  it('reports a stored cell it cannot decode as a CellEncodingError naming table and row', async () => {
    const config = freshConfig();
    const store = await createHbasePageStore(config, silentLogger());
    const page = samplePage(`${site()}/damaged`, 1000);
    await store.put([page]);
    const client = createHbaseRestClient({ url: config.restUrl, requestTimeoutMs: 30_000 });
    await client.putRows(config.table, [
      {
        key: pageRowKey(page.url),
        cells: [{ column: 'p:body', timestamp: 1000, value: Buffer.from([0x7f, 1, 2, 3]) }],
      },
    ]);
    const error = await failure(store.get(page.url));
    expect(error).toBeInstanceOf(CellEncodingError);
    expect(error.message).toContain(config.table);
    expect(error.message).toContain(pageRowKey(page.url));
    expect(error.message).toContain('0x7f');
    await store.close();
  });

  it('creates the table once; a second instance uses it, and a different VERSIONS is logged, not altered', async () => {
    const config = freshConfig({ HBASE_MAX_VERSIONS: '4' });
    const first = capturingLogger();
    const store = await createHbasePageStore(config, first.logger);
    expect(first.lines()).toContain('created the page table');
    const second = capturingLogger();
    const again = await createHbasePageStore({ ...config, maxVersions: 7 }, second.logger);
    expect(second.lines()).not.toContain('created the page table');
    expect(second.lines()).toMatch(/"tableVersions":4,"maxVersions":7/);
    const schema = await createHbaseRestClient({ url: config.restUrl, requestTimeoutMs: 30_000 }).getSchema(
      config.table,
    );
    expect(schema?.ColumnSchema.find((family) => family.name === 'p')?.VERSIONS).toBe('4');
    await Promise.all([store.close(), again.close()]);
  });

  it('keeps page content out of its logs', async () => {
    const config = freshConfig();
    const { logger, lines } = capturingLogger();
    const store = await createHbasePageStore(config, logger);
    const page = samplePage(`${site()}/private`, 1000, {
      body: Buffer.from('BODY-MARKER '.repeat(1000)),
      text: 'TEXT-MARKER',
    });
    await store.put([page]);
    await store.get(page.url);
    await store.close();
    expect(lines()).toContain('stored pages');
    expect(lines()).not.toMatch(/BODY-MARKER|TEXT-MARKER/);
  });
});
