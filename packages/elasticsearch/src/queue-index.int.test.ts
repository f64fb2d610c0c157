import { Client } from '@elastic/elasticsearch';
import type { LinkBase } from '@crawler/core';
import { makeLinkRecord } from '@crawler/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createElasticsearchLinkBase } from './elasticsearch-linkbase.js';
import { queueIndexName, type QueueDoc } from './queue-index.js';
import { QueueStore } from './queue-store.js';
import { TEST_URL, dropTestIndex, quiet, testConfig } from './testing/test-index.js';

describe('queue index', () => {
  const config = testConfig();
  const client = new Client({ node: TEST_URL });
  let linkbase: LinkBase;

  const queueDoc = async (queueKey: string, index = config.index): Promise<QueueDoc | null> => {
    const doc = await client.get<QueueDoc>({ index: queueIndexName(index), id: queueKey }, { ignore: [404] });
    return doc.found ? doc._source! : null;
  };
  const hostDue = async (host: string, now: number) =>
    (await linkbase.findDue({ now, limit: 1000, perQueueLimit: 100 }))
      .filter((record) => record.host === host)
      .map((record) => new URL(record.url).pathname);

  beforeAll(async () => {
    linkbase = await createElasticsearchLinkBase(config, quiet);
  });
  afterAll(async () => {
    await linkbase.close();
    await dropTestIndex(config.index);
    await client.close();
  });

  it('keeps per queue the earliest due time: lowered by writes, raised once found with nothing due, removed when nothing is left', async () => {
    const now = 1_000_000;
    const host = 'life.queue.test';
    const record = makeLinkRecord(`http://${host}/a`, { nextFetchAt: now - 10 });
    await linkbase.insertNew([record, makeLinkRecord(`http://${host}/gone`, { status: 'gone', nextFetchAt: 0 })]);
    expect(await queueDoc(host)).toEqual({ queueKey: host, dueAt: now - 10, partition: record.partition });

    await linkbase.lease([record.id], now + 1000, now);
    // A lease makes nothing due sooner: the queue stays as it was until selection finds it idle...
    expect((await queueDoc(host))!.dueAt).toBe(now - 10);
    expect(await hostDue(host, now)).toEqual([]);
    // ...and the next findDue raises it to the lease's end.
    expect(await hostDue(host, now)).toEqual([]);
    expect((await queueDoc(host))!.dueAt).toBe(now + 1000);
    expect(await hostDue(host, now + 1000)).toEqual(['/a']);

    await linkbase.update([record.id], (current) => ({ ...current, status: 'gone', leaseUntil: 0 }));
    await hostDue(host, now + 2000);
    await hostDue(host, now + 2000);
    expect(await queueDoc(host)).toBeNull();

    await linkbase.update([record.id], (current) => ({ ...current, status: 'retry', nextFetchAt: now + 5000 }));
    expect(await queueDoc(host)).toEqual({ queueKey: host, dueAt: now + 5000, partition: record.partition });
    expect(await hostDue(host, now + 4999)).toEqual([]);
    expect(await hostDue(host, now + 5000)).toEqual(['/a']);
  });

  it('keeps a queue due when a URL is written after selection read it idle, even before search sees that URL', async () => {
    const now = 2_000_000;
    const host = 'race.queue.test';
    const first = makeLinkRecord(`http://${host}/first`, { nextFetchAt: now - 10 });
    await linkbase.insertNew([first]);
    await linkbase.lease([first.id], now + 60_000, now);
    await linkbase.flush();
    const store = new QueueStore(client, config.index, TEST_URL, () => undefined);
    const idle = (await store.page(now, { after: undefined, upTo: undefined, queues: 1000 }, {})).filter(
      (queue) => queue.doc.queueKey === host,
    );
    expect(idle).toHaveLength(1);
    // Another process adds a URL due later than the queue's time; search does not see it yet.
    await client.indices.putSettings({ index: config.index, settings: { refresh_interval: '-1' } });
    const other = await createElasticsearchLinkBase(config, quiet);
    try {
      await other.insertNew([makeLinkRecord(`http://${host}/second`, { nextFetchAt: now - 5 })]);
      await store.raise(idle, now);
    } finally {
      await other.close();
      await client.indices.putSettings({ index: config.index, settings: { refresh_interval: '1s' } });
    }
    expect((await queueDoc(host))!.dueAt).toBe(now - 10);
    await linkbase.flush();
    expect(await hostDue(host, now)).toEqual(['/second']);
  });

  it('is built from the URLs when a link base written before it is opened', async () => {
    const upgraded = testConfig();
    let old = await createElasticsearchLinkBase(upgraded, quiet);
    try {
      const now = 4_000_000;
      await old.insertNew([
        makeLinkRecord('http://a.old.test/x', { nextFetchAt: now - 1 }),
        makeLinkRecord('http://b.old.test/later', { nextFetchAt: now + 100 }),
        makeLinkRecord('http://c.old.test/gone', { status: 'gone' }),
      ]);
      await old.close();
      await client.indices.delete({ index: queueIndexName(upgraded.index) });
      old = await createElasticsearchLinkBase(upgraded, quiet);
      const hosts = async (at: number) =>
        (await old.findDue({ now: at, limit: 100, perQueueLimit: 10 })).map((record) => record.host).sort();
      expect(await hosts(now)).toEqual(['a.old.test']);
      const a = makeLinkRecord('http://a.old.test/x');
      expect(await queueDoc('a.old.test', upgraded.index)).toEqual({
        queueKey: 'a.old.test',
        dueAt: now - 1,
        partition: a.partition,
      });
      expect(await hosts(now + 100)).toEqual(['a.old.test', 'b.old.test']);
    } finally {
      await old.close();
      await dropTestIndex(upgraded.index);
    }
  });
});
