import { randomUUID } from 'node:crypto';
import { Schemas, surtKey, urlId, type StoredPage } from '@crawler/core';
import { sampleMessages } from '@crawler/core/testing';
import { loadHbaseConfig, type HbaseConfig } from '../hbase-settings.js';
import { createHbaseRestClient } from '../rest-client.js';

/** A table name no other run uses, so tests can share one cluster and drop what they made. */
export function randomTableName(label = 'test'): string {
  return `${label}_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
}

/** Settings for the local stack (deploy/local), or HBASE_REST_URL / HBASE_ZOOKEEPER_QUORUM when set; a fresh table. */
export function localHbaseConfig(env: Record<string, string> = {}): HbaseConfig {
  return loadHbaseConfig({
    env: {
      HBASE_REST_URL: process.env.HBASE_REST_URL || 'http://127.0.0.1:18080',
      HBASE_ZOOKEEPER_QUORUM: process.env.HBASE_ZOOKEEPER_QUORUM || '127.0.0.1:12181',
      HBASE_TABLE: randomTableName(),
      ...env,
    },
  });
}

/** Drops the table (disable + delete through the gateway); a table already gone is fine. */
export async function dropTable(config: HbaseConfig): Promise<void> {
  const client = createHbaseRestClient({ url: config.restUrl, requestTimeoutMs: 120_000 });
  if (await client.getSchema(config.table)) await client.dropTable(config.table);
}

/** A stored page of `url` fetched at `fetchedAt`; the sample page's fields, body and text replaceable. */
export function samplePage(url: string, fetchedAt: number, overrides: Partial<StoredPage> = {}): StoredPage {
  const body = overrides.body ?? Buffer.from(`<html><body>${url} at ${fetchedAt}</body></html>`);
  return {
    ...sampleMessages[Schemas.StoredPage],
    url,
    urlId: urlId(url),
    surt: surtKey(url),
    host: new URL(url).host,
    finalUrl: url,
    fetchedAt,
    text: `${url} at ${fetchedAt}`,
    ...overrides,
    body,
    bodyLength: overrides.bodyLength ?? body.length,
  };
}
