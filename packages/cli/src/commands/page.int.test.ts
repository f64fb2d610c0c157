import { silentLogger } from '@crawler/core';
import { createHbasePageStore } from '@crawler/hbase';
import { dropTable, localHbaseConfig, samplePage } from '@crawler/hbase/testing';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { pageCommand } from './page.js';

describe('crawler page get on HBase', () => {
  const config = localHbaseConfig();
  afterAll(() => dropTable(config));

  it('reads the versions the page store of the services holds', async () => {
    const url = 'http://hbase-page.test/a';
    const store = await createHbasePageStore(config, silentLogger());
    await store.put([
      samplePage(url, Date.UTC(2026, 1, 1), { change: 'new' }),
      samplePage(url, Date.UTC(2026, 1, 2), { change: 'changed' }),
    ]);
    await store.close();
    const out: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => out.push(String(chunk)) > 0);
    const env = {
      ...process.env,
      CRAWLER_PAGE_STORE: 'hbase',
      HBASE_REST_URL: config.restUrl,
      HBASE_TABLE: config.table,
    };
    try {
      expect(await pageCommand(['get', '--versions', '--json', url], env)).toBe(0);
    } finally {
      vi.restoreAllMocks();
    }
    expect(
      out
        .join('')
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { change: string }).change),
    ).toEqual(['changed', 'new']);
  });
});
