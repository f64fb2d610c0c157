import { join } from 'node:path';
import { Client } from '@elastic/elasticsearch';
import { silentLogger } from '@crawler/core';
import { createElasticsearchLinkBase, loadElasticsearchConfig } from '@crawler/elasticsearch';
import { FileLinkBase } from '@crawler/embedded';
import { knownUrlRecord } from './known-urls.js';

const CHUNK = 10_000;

/** Pre-fills the embedded link base in `outDir` through its own API; resolves with the seconds it took. */
export async function prefillFileLinkBase(outDir: string, count: number, now = Date.now()): Promise<number> {
  const started = performance.now();
  const linkbase = await FileLinkBase.open(join(outDir, 'linkbase'));
  for (let from = 0; from < count; from += CHUNK) {
    await linkbase.insertNew(
      Array.from({ length: Math.min(CHUNK, count - from) }, (_, i) => knownUrlRecord(from + i, now)),
    );
    // As its timer would: one flush of a million changed records exceeds V8's longest string.
    await linkbase.flush();
  }
  await linkbase.close();
  return (performance.now() - started) / 1000;
}

/**
 * Pre-fills the Elasticsearch link base named by `env`: the adapter creates its template and
 * index, then bare bulk requests (1,000 creates each, two at a time) load the records, because
 * a million inserts through the adapter would take much of the time budget.
 */
export async function prefillElasticsearch(
  env: Record<string, string>,
  count: number,
  now = Date.now(),
): Promise<number> {
  const started = performance.now();
  const config = loadElasticsearchConfig({ env });
  await (await createElasticsearchLinkBase(config, silentLogger())).close();
  const client = new Client({ node: config.url });
  try {
    let next = 0;
    await Promise.all(
      Array.from({ length: 2 }, async () => {
        while (next < count) {
          const from = next;
          next += 1000;
          const records = Array.from({ length: Math.min(1000, count - from) }, (_, i) => knownUrlRecord(from + i, now));
          const response = await client.bulk({
            index: config.index,
            operations: records.flatMap((record) => [{ create: { _id: record.id } }, record]),
          });
          if (response.errors)
            throw new Error(
              `pre-fill bulk had item errors, first: ${JSON.stringify(response.items.find((item) => item.create?.error)?.create?.error)}`,
            );
        }
      }),
    );
    await client.indices.refresh({ index: config.index });
  } finally {
    await client.close();
  }
  return (performance.now() - started) / 1000;
}
