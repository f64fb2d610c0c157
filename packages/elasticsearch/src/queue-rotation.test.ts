import { makeLinkRecord } from '@crawler/core/testing';
import type { LinkRecord } from '@crawler/core';
import { describe, expect, it } from 'vitest';
import {
  MAX_QUEUES_PER_PAGE,
  MAX_RECORDS_PER_PAGE,
  QueueRotation,
  nextPageSize,
  type QueueBatch,
  type QueuePageRequest,
} from './queue-rotation.js';

/** Queues as the cluster would page them: sorted keys, `after` exclusive, `upTo` inclusive, each cut to `perQueue` as top_hits does. */
function fakeCluster(sizes: Record<string, number>, perQueue = Infinity) {
  const queues = new Map<string, LinkRecord[]>(
    Object.entries(sizes)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([key, size]) => [
        key,
        Array.from({ length: size }, (_, i) => makeLinkRecord(`http://${key}/${i}`, { depth: i })),
      ]),
  );
  const requests: QueuePageRequest[] = [];
  const fetchPage = async (request: QueuePageRequest): Promise<QueueBatch[]> => {
    requests.push({ ...request });
    return [...queues]
      .filter(
        ([key]) =>
          (request.after === undefined || key > request.after) && (request.upTo === undefined || key <= request.upTo),
      )
      .slice(0, request.queues)
      .map(([queueKey, records]) => ({ queueKey, records: records.slice(0, perQueue) }));
  };
  return { fetchPage, requests };
}

const hosts = (records: LinkRecord[]) => [...new Set(records.map((record) => record.host))];

describe('QueueRotation', () => {
  it('takes what each queue brings, in the order given, until the limit', async () => {
    const { fetchPage } = fakeCluster({ 'a.test': 5, 'b.test': 1, 'c.test': 5 }, 3);
    const taken = await new QueueRotation().take(fetchPage, 6, 3);
    expect(taken.map((record) => new URL(record.url).host + new URL(record.url).pathname)).toEqual([
      'a.test/0',
      'a.test/1',
      'a.test/2',
      'b.test/0',
      'c.test/0',
      'c.test/1',
    ]);
  });

  it('starts each round after the queue the previous round ended with, wrapping around', async () => {
    const { fetchPage } = fakeCluster({ 'a.test': 9, 'b.test': 9, 'c.test': 9, 'd.test': 9, 'e.test': 9 }, 2);
    const rotation = new QueueRotation();
    const rounds: string[][] = [];
    for (let i = 0; i < 4; i++) rounds.push(hosts(await rotation.take(fetchPage, 4, 2)));
    expect(rounds).toEqual([
      ['a.test', 'b.test'],
      ['c.test', 'd.test'],
      ['e.test', 'a.test'],
      ['b.test', 'c.test'],
    ]);
  });

  it('serves every one of many queues within ceil(queues / queues per round) rounds', async () => {
    const sizes = Object.fromEntries(
      Array.from({ length: 50 }, (_, i) => [`h${String(i).padStart(2, '0')}.test`, 200]),
    );
    const { fetchPage } = fakeCluster(sizes, 10);
    const rotation = new QueueRotation();
    const seen = new Set<string>();
    for (let round = 0; round < 5; round++) {
      const taken = await rotation.take(fetchPage, 100, 10);
      expect(taken).toHaveLength(100);
      for (const host of hosts(taken)) seen.add(host);
    }
    expect(seen.size).toBe(50);
  });

  it('visits each queue at most once per round, even when everything fits', async () => {
    const { fetchPage } = fakeCluster({ 'a.test': 2, 'b.test': 2, 'c.test': 2 });
    const rotation = new QueueRotation();
    await rotation.take(fetchPage, 2, 2);
    const second = await rotation.take(fetchPage, 100, 5);
    expect(second).toHaveLength(6);
    expect(hosts(second)).toEqual(['b.test', 'c.test', 'a.test']);
  });

  it('asks for more queues per page once it sees that queues are thin', async () => {
    const { fetchPage, requests } = fakeCluster(
      Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`h${String(i).padStart(3, '0')}.test`, 1])),
    );
    const taken = await new QueueRotation().take(fetchPage, 200, 20);
    expect(taken).toHaveLength(200);
    expect(requests.map((request) => request.queues)).toEqual([10, 190]);
  });

  it('starts from the first queue again after a round that reached the last, in one request', async () => {
    const { fetchPage, requests } = fakeCluster({ 'only.test': 30 }, 20);
    const rotation = new QueueRotation();
    expect(await rotation.take(fetchPage, 100, 20)).toHaveLength(20);
    expect(await rotation.take(fetchPage, 100, 20)).toHaveLength(20);
    expect(requests).toEqual([
      { after: undefined, upTo: undefined, queues: 5 },
      { after: undefined, upTo: undefined, queues: 5 },
    ]);
  });

  it('returns nothing for an empty link base or a zero limit', async () => {
    const { fetchPage, requests } = fakeCluster({});
    expect(await new QueueRotation().take(fetchPage, 10, 2)).toEqual([]);
    expect(await new QueueRotation().take(fakeCluster({ 'a.test': 1 }).fetchPage, 0, 2)).toEqual([]);
    expect(requests).toHaveLength(1);
  });

  it('bounds the queues and records of one page', () => {
    expect(nextPageSize(1000, 20, 0, 0)).toBe(50);
    expect(nextPageSize(950, 20, 50, 50)).toBe(MAX_RECORDS_PER_PAGE / 20);
    expect(nextPageSize(950, 5, 50, 50)).toBe(950);
    expect(nextPageSize(100_000, 1, 0, 0)).toBe(MAX_QUEUES_PER_PAGE);
    expect(nextPageSize(5000, 1000, 0, 0)).toBe(5);
    expect(nextPageSize(1, 20, 0, 0)).toBe(1);
    expect(nextPageSize(1, 20_000, 0, 0)).toBe(1);
  });
});
