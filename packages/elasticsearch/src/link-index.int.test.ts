import { Client, errors } from '@elastic/elasticsearch';
import { BackendError, type LinkBase, type LinkRecord } from '@crawler/core';
import { makeLinkRecord } from '@crawler/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BulkItemsError } from './elasticsearch-errors.js';
import { createElasticsearchLinkBase } from './elasticsearch-linkbase.js';
import { LINK_PROPERTIES, MAX_PER_QUEUE } from './link-index-template.js';
import { TEST_URL, dropTestIndex, quiet, testConfig } from './testing/test-index.js';
import { queueIndexName } from './queue-index.js';

describe('link base index', () => {
  const config = testConfig({ shards: 2 });
  const client = new Client({ node: TEST_URL });
  let linkbase: LinkBase;

  beforeAll(async () => {
    linkbase = await createElasticsearchLinkBase(config, quiet);
  });
  afterAll(async () => {
    await linkbase.close();
    await dropTestIndex(config.index);
    await client.close();
  });

  it('is created from the template with the mappings and settings the code expects', async () => {
    const template = await client.indices.getIndexTemplate({ name: config.index });
    expect(template.index_templates[0]!.index_template.index_patterns).toEqual([config.index]);
    const mapping = (await client.indices.getMapping({ index: config.index }))[config.index]!.mappings;
    expect(mapping.dynamic).toBe('strict');
    expect(mapping.properties).toEqual(LINK_PROPERTIES);
    const settings = (await client.indices.getSettings({ index: config.index }))[config.index]!.settings!.index!;
    expect(settings).toMatchObject({
      number_of_shards: '2',
      number_of_replicas: '0',
      max_inner_result_window: String(MAX_PER_QUEUE),
    });
  });

  it('rejects a document with a field the mapping does not know', async () => {
    const record = makeLinkRecord('http://strict.test/');
    const refused = client.index({ index: config.index, id: 'stray', document: { ...record, stray: 1 } });
    await expect(refused).rejects.toBeInstanceOf(errors.ResponseError);
    await expect(refused).rejects.toMatchObject({
      statusCode: 400,
      message: expect.stringContaining('strict_dynamic_mapping_exception'),
    });
    const failed = await linkbase.insertNew([{ ...record, stray: 1 } as LinkRecord]).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(BulkItemsError);
    expect(failed).toMatchObject({
      retriable: false,
      failures: [{ id: record.id, status: 400, type: 'strict_dynamic_mapping_exception' }],
    });
  });

  it('stores every field of a record as it was given, including NEVER and nulls', async () => {
    const full: LinkRecord = {
      ...makeLinkRecord('http://full.test/a?b=c', {
        anchors: ['Home', 'Start here'],
        depth: 4,
        discoveredAt: 1_700_000_000_123,
      }),
      status: 'fetched',
      fetchCount: 3,
      inlinks: 12,
      lastFetchAt: 1_700_000_100_000,
      lastChangeAt: null,
      consecutiveFailures: 1,
      lastOutcome: 'ok',
      httpStatus: 200,
      etag: '"abc"',
      lastModified: 'Tue, 01 Jan 2030 00:00:00 GMT',
      digest: 'sha1:XYZ',
      redirectTo: null,
      redirectHops: 2,
      duplicateOf: null,
      errorCode: null,
      priority: 2.5,
      trafficClass: 'freshness',
      nextFetchAt: Number.MAX_SAFE_INTEGER,
      leaseUntil: 0,
      leaseExpiries: 1,
    };
    expect(await linkbase.insertNew([full])).toEqual([full.id]);
    expect((await linkbase.getMany([full.id])).get(full.id)).toEqual(full);
  });

  it('opens an existing index again without touching its records', async () => {
    const record = makeLinkRecord('http://reopen.test/');
    await linkbase.insertNew([record]);
    const again = await createElasticsearchLinkBase(config, quiet);
    try {
      expect((await again.getMany([record.id])).get(record.id)).toEqual(record);
    } finally {
      await again.close();
    }
  });

  it('gives a document written before records carried their partition its partition on read, and a lone scheduler finds it due', async () => {
    const record = makeLinkRecord('http://legacy-partition.test/', { nextFetchAt: 1 });
    const { partition: _dropped, ...legacy } = record;
    await client.index({ index: config.index, id: record.id, document: legacy, refresh: true });
    expect((await linkbase.getMany([record.id])).get(record.id)).toEqual(record);
    // Such a link base predates the queue index too: opening it again builds that from its URLs.
    await client.indices.delete({ index: queueIndexName(config.index) });
    const upgraded = await createElasticsearchLinkBase(config, quiet);
    try {
      const due = await upgraded.findDue({ now: 2, limit: 10_000, perQueueLimit: 10 });
      expect(due.find((found) => found.id === record.id)).toEqual(record);
      expect((await upgraded.lease([record.id], 1000, 2)).map((leased) => leased.partition)).toEqual([
        record.partition,
      ]);
    } finally {
      await upgraded.close();
    }
  });

  it('fails with a non-retriable error naming the index when the existing index has other types', async () => {
    const other = testConfig();
    await client.indices.create({ index: other.index, mappings: { properties: { depth: { type: 'keyword' } } } });
    try {
      const failed = await createElasticsearchLinkBase(other, quiet).catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(BackendError);
      expect(failed).toMatchObject({
        retriable: false,
        message: expect.stringMatching(
          new RegExp(`install on index ${other.index} .*HTTP 400 illegal_argument_exception.*depth`),
        ),
      });
    } finally {
      await dropTestIndex(other.index);
    }
  });
});
