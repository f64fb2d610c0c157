import { randomUUID } from 'node:crypto';
import { Client } from '@elastic/elasticsearch';
import { silentLogger } from '@crawler/core';
import { loadElasticsearchConfig, type ElasticsearchConfig } from '../elasticsearch-settings.js';
import { deleteLinkBase } from '../link-index.js';

/** The local stack's node unless ELASTICSEARCH_URL says otherwise (`npm run stack:up -- elasticsearch`). */
export const TEST_URL = process.env.ELASTICSEARCH_URL ?? 'http://127.0.0.1:19200';

export const quiet = silentLogger();

/** Settings for a fresh index of its own, so runs and test files never see each other's records. */
export function testConfig(overrides: Record<string, unknown> = {}): ElasticsearchConfig {
  return loadElasticsearchConfig({
    env: {},
    overrides: { url: TEST_URL, index: `crawler-links-test-${randomUUID().slice(0, 12)}`, ...overrides },
  });
}

/** Deletes the test link base: its indices and its template. */
export async function dropTestIndex(index: string): Promise<void> {
  const client = new Client({ node: TEST_URL });
  try {
    await deleteLinkBase(client, index);
  } finally {
    await client.close();
  }
}
