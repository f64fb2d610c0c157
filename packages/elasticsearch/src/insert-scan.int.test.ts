import type { LinkBase, LinkRecord } from '@crawler/core';
import { makeLinkRecord } from '@crawler/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createElasticsearchLinkBase } from './elasticsearch-linkbase.js';
import { dropTestIndex, quiet, testConfig } from './testing/test-index.js';

const COUNT = 20_000;

describe('many records', () => {
  const config = testConfig();
  let linkbase: LinkBase;
  const records: LinkRecord[] = Array.from({ length: COUNT }, (_, i) =>
    makeLinkRecord(`http://bulk${i % 97}.many.test/page/${i}`, { depth: i % 4, anchors: [`link ${i}`] }),
  );

  beforeAll(async () => {
    linkbase = await createElasticsearchLinkBase(config, quiet);
  });
  afterAll(async () => {
    await linkbase.close();
    await dropTestIndex(config.index);
  });

  it('inserts 20k records in batches, each once', async () => {
    const created: string[] = [];
    for (let i = 0; i < COUNT; i += 2500) created.push(...(await linkbase.insertNew(records.slice(i, i + 2500))));
    expect(created).toHaveLength(COUNT);
    expect(new Set(created).size).toBe(COUNT);
    // Half known, half new: only the new half is reported.
    const extra = Array.from({ length: 500 }, (_, i) => makeLinkRecord(`http://extra.many.test/${i}`));
    expect((await linkbase.insertNew([...records.slice(0, 500), ...extra])).sort()).toEqual(
      extra.map((record) => record.id).sort(),
    );
    expect((await linkbase.stats(0)).total).toBe(COUNT + 500);
  });

  it('scans every record exactly once, across pages', async () => {
    const seen = new Set<string>();
    let count = 0;
    for await (const record of linkbase.scan()) {
      seen.add(record.id);
      count++;
    }
    expect(count).toBe(COUNT + 500);
    expect(seen.size).toBe(COUNT + 500);
  });

  it('updates many records in one call', async () => {
    const ids = records.slice(0, 3000).map((record) => record.id);
    const updated = await linkbase.update(ids, (current) => ({ ...current, inlinks: current.inlinks + 1 }));
    expect(updated).toHaveLength(3000);
    const stored = await linkbase.getMany(ids);
    expect([...stored.values()].every((record) => record.inlinks === 1)).toBe(true);
  });
});
