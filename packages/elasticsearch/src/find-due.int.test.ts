import type { LinkBase, LinkRecord } from '@crawler/core';
import { makeLinkRecord } from '@crawler/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createElasticsearchLinkBase } from './elasticsearch-linkbase.js';
import { dropTestIndex, quiet, testConfig } from './testing/test-index.js';

const HOSTS = 50;
const PER_HOST = 200;
const NOW = 10_000_000;

function countByHost(records: LinkRecord[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const record of records) counts.set(record.host, (counts.get(record.host) ?? 0) + 1);
  return counts;
}

describe('findDue across many hosts', () => {
  const config = testConfig();
  let linkbase: LinkBase;

  beforeAll(async () => {
    linkbase = await createElasticsearchLinkBase(config, quiet);
    const records: LinkRecord[] = [];
    for (let h = 0; h < HOSTS; h++) {
      // Host 0 has the oldest URLs and the highest priority: it must not take every round.
      for (let i = 0; i < PER_HOST; i++) {
        records.push(
          makeLinkRecord(`http://host${h}.fair.test/${i}`, {
            depth: i % 5,
            rank: ((i * 37) % 200) / 200,
            nextFetchAt: h === 0 ? 1 : NOW - 1000 + i,
            priority: h === 0 ? 9 : 0,
            level: h === 0 ? 0 : 1,
          }),
        );
      }
    }
    expect(await linkbase.insertNew(records)).toHaveLength(HOSTS * PER_HOST);
  });
  afterAll(async () => {
    await linkbase.close();
    await dropTestIndex(config.index);
  });

  it('gives every host a turn within a few rounds and never more than the per-queue cap', async () => {
    const seen = new Set<string>();
    let rounds = 0;
    while (seen.size < HOSTS && rounds < 10) {
      const due = await linkbase.findDue({ now: NOW, limit: 100, perQueueLimit: 10 });
      rounds++;
      expect(due).toHaveLength(100);
      const counts = countByHost(due);
      expect(Math.max(...counts.values())).toBeLessThanOrEqual(10);
      for (const host of counts.keys()) seen.add(host);
    }
    expect(seen.size).toBe(HOSTS);
    expect(rounds).toBe(5);
  });

  it('returns each host breadth-first: depth, then the random rank', async () => {
    const due = await linkbase.findDue({ now: NOW, limit: 2000, perQueueLimit: 40 });
    expect(due).toHaveLength(2000);
    for (const host of countByHost(due).keys()) {
      const mine = due.filter((record) => record.host === host);
      expect(mine).toHaveLength(40);
      const sorted = [...mine].sort((a, b) => a.depth - b.depth || a.rank - b.rank);
      expect(mine.map((record) => record.id)).toEqual(sorted.map((record) => record.id));
      expect(mine.every((record) => record.depth === 0)).toBe(true);
    }
  });

  it('hands every due URL out exactly once when rounds lease what they find, as the scheduler does', async () => {
    const leasedIds = new Set<string>();
    const firstRoundOf = new Map<string, number>();
    for (let round = 0; round < 200 && leasedIds.size < HOSTS * PER_HOST; round++) {
      const due = await linkbase.findDue({ now: NOW, limit: 500, perQueueLimit: 20 });
      const leased = await linkbase.lease(
        due.map((record) => record.id),
        NOW + 60_000,
        NOW,
      );
      expect(leased).toHaveLength(due.length);
      for (const record of leased) {
        expect(leasedIds.has(record.id)).toBe(false);
        leasedIds.add(record.id);
        if (!firstRoundOf.has(record.host)) firstRoundOf.set(record.host, round);
      }
    }
    expect(leasedIds.size).toBe(HOSTS * PER_HOST);
    expect(Math.max(...firstRoundOf.values())).toBeLessThanOrEqual(2);
    expect(await linkbase.findDue({ now: NOW, limit: 500, perQueueLimit: 20 })).toEqual([]);
    expect((await linkbase.stats(NOW, { due: true })).due).toBe(0);
  });
});
