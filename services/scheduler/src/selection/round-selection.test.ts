import type { LinkRecord } from '@crawler/core';
import { makeLinkRecord } from '@crawler/core/testing';
import { describe, expect, it } from 'vitest';
import { drawByWeight } from './lottery.js';
import { selectRound, type RoundInput, type SelectionPolicy } from './round-selection.js';

function seeded(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 48271) % 2147483647) / 2147483647;
}

const policy: SelectionPolicy = {
  classShares: { discovery: 5, freshness: 3, update: 2 },
  levelWeights: [8, 4, 2, 1],
  hostOrder: 'breadth-first',
};

function records(host: string, count: number, fields: (i: number) => Partial<LinkRecord> = () => ({})): LinkRecord[] {
  return Array.from({ length: count }, (_, i) =>
    makeLinkRecord(`http://${host}/${i}`, { rank: (i * 0.618) % 1, ...fields(i) }),
  );
}

function input(candidates: LinkRecord[], overrides: Partial<RoundInput> = {}): RoundInput {
  return { candidates, room: 100, hostAllowance: () => 1000, admit: () => true, random: seeded(42), ...overrides };
}

const share = (picked: LinkRecord[], test: (record: LinkRecord) => boolean) =>
  picked.filter(test).length / picked.length;

describe('selectRound', () => {
  it('splits a round between traffic classes by their shares while each has work', () => {
    const candidates = [
      ...records('d.test', 3000, () => ({ trafficClass: 'discovery' })),
      ...records('f.test', 3000, () => ({ trafficClass: 'freshness' })),
      ...records('u.test', 3000, () => ({ trafficClass: 'update' })),
    ];
    const picked = selectRound(input(candidates, { room: 2000 }), policy);
    expect(picked).toHaveLength(2000);
    expect(share(picked, (record) => record.trafficClass === 'discovery')).toBeCloseTo(0.5, 1);
    expect(share(picked, (record) => record.trafficClass === 'freshness')).toBeCloseTo(0.3, 1);
    expect(share(picked, (record) => record.trafficClass === 'update')).toBeCloseTo(0.2, 1);
  });

  it('gives a class without share whatever the others leave', () => {
    const picked = selectRound(input(records('u.test', 50, () => ({ trafficClass: 'update' }))), {
      ...policy,
      classShares: { discovery: 1, update: 0 },
    });
    expect(picked).toHaveLength(50);
  });

  it('guarantees low levels their weighted share: nothing starves behind a flood of top-level URLs', () => {
    const hosts = Array.from({ length: 40 }, (_, h) =>
      records(`h${h}.test`, 100, (i) => ({ level: h === 39 ? 3 : 0, depth: i })),
    );
    const picked = selectRound(input(hosts.flat(), { room: 600 }), policy);
    const lowShare = share(picked, (record) => record.level === 3);
    // Level 3 weighs 1 against level 0's 8: about 1/9 of the picks, never none.
    expect(lowShare).toBeGreaterThan(0.07);
    expect(lowShare).toBeLessThan(0.16);
  });

  it('takes each host breadth-first: a class never skips to a deeper URL of the same host', () => {
    const candidates = records('a.test', 60, (i) => ({ depth: i % 4, level: (i * 7) % 4 }));
    const picked = selectRound(input(candidates, { room: 30 }), policy);
    const depths = picked.map((record) => record.depth);
    expect(depths).toEqual([...depths].sort((a, b) => a - b));
    expect(depths.slice(0, 15).every((depth) => depth === 0)).toBe(true);
  });

  it('with priority host order, takes a host by level first, low levels still getting their share', () => {
    const candidates = records('a.test', 400, (i) => ({ depth: i < 200 ? 5 : 0, level: i < 200 ? 0 : 3 }));
    const picked = selectRound(input(candidates, { room: 90 }), { ...policy, hostOrder: 'priority' });
    expect(picked[0]!.level).toBe(0);
    expect(share(picked, (record) => record.level === 3)).toBeGreaterThan(0.05);
    expect(share(picked, (record) => record.level === 0)).toBeGreaterThan(0.8);
  });

  it('picks hosts at random within a level, so order among equals is not fixed', () => {
    const candidates = ['a.test', 'b.test', 'c.test', 'd.test'].flatMap((host) => records(host, 5));
    const firsts = new Set(
      [1, 2, 3, 4, 5, 6, 7, 8].map(
        (seed) => selectRound(input(candidates, { room: 1, random: seeded(seed) }), policy)[0]!.host,
      ),
    );
    expect(firsts.size).toBeGreaterThan(1);
  });

  it('respects each host allowance and skips records not admitted', () => {
    const candidates = [...records('a.test', 20), ...records('b.test', 20, () => ({ fetchCount: 0 }))];
    const allowance = (queueKey: string) => (queueKey === 'a.test' ? 3 : 100);
    const admitted = new Set(
      candidates
        .filter((record) => record.host === 'b.test')
        .slice(0, 4)
        .map((record) => record.id),
    );
    const picked = selectRound(
      input(candidates, {
        hostAllowance: allowance,
        admit: (record) => record.host === 'a.test' || admitted.has(record.id),
      }),
      policy,
    );
    expect(picked.filter((record) => record.host === 'a.test')).toHaveLength(3);
    expect(
      picked
        .filter((record) => record.host === 'b.test')
        .map((record) => record.id)
        .sort(),
    ).toEqual([...admitted].sort());
  });

  it('stops at the room and returns nothing without candidates', () => {
    expect(selectRound(input(records('a.test', 10), { room: 4 }), policy)).toHaveLength(4);
    expect(selectRound(input([]), policy)).toEqual([]);
    expect(selectRound(input(records('a.test', 10), { hostAllowance: () => 0 }), policy)).toEqual([]);
  });
});

describe('drawByWeight', () => {
  it('draws in proportion to weight and never a zero weight while others have some', () => {
    const random = seeded(3);
    const counts = new Map<string, number>();
    for (let i = 0; i < 10_000; i++) {
      const key = drawByWeight(
        ['a', 'b', 'c', 'd'],
        (key) => key !== 'd',
        (key) => ({ a: 6, b: 3, c: 0, d: 100 })[key]!,
        random,
      )!;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(counts.get('c')).toBeUndefined();
    expect(counts.get('d')).toBeUndefined();
    expect(counts.get('a')! / 10_000).toBeCloseTo(2 / 3, 1);
  });

  it('draws uniformly among items with work when all weigh nothing, and nothing when none has work', () => {
    const random = seeded(5);
    const drawn = new Set(
      Array.from({ length: 50 }, () =>
        drawByWeight(
          ['a', 'b'],
          () => true,
          () => 0,
          random,
        ),
      ),
    );
    expect(drawn).toEqual(new Set(['a', 'b']));
    expect(
      drawByWeight(
        ['a'],
        () => false,
        () => 1,
        random,
      ),
    ).toBeUndefined();
  });
});

describe('selectRound for re-crawls', () => {
  it('serves re-crawls most overdue first within a level, across hosts and within each', () => {
    const candidates = ['a.test', 'b.test', 'c.test'].flatMap((host, h) =>
      records(host, 4, (i) => ({
        trafficClass: 'update',
        status: 'fetched',
        fetchCount: 2,
        nextFetchAt: 1000 - (i * 3 + h) * 10,
        depth: 4 - i,
      })),
    );
    const picked = selectRound(input(candidates, { room: 12 }), policy);
    const due = picked.map((record) => record.nextFetchAt);
    expect(due).toEqual([...due].sort((a, b) => a - b));
  });
});
