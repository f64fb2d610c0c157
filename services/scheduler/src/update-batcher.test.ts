import type { LinkBase, LinkMutation, LinkRecord } from '@crawler/core';
import { makeLinkRecord } from '@crawler/core/testing';
import { describe, expect, it } from 'vitest';
import { UpdateBatcher } from './update-batcher.js';

function countingLinkBase(records: LinkRecord[], fail = false) {
  const stored = new Map(records.map((record) => [record.id, record]));
  const calls: string[][] = [];
  const linkbase = {
    async update(ids: string[], mutate: LinkMutation) {
      calls.push(ids);
      if (fail) throw new Error('cluster down');
      const out: LinkRecord[] = [];
      for (const id of ids) {
        const current = stored.get(id);
        const next = current && mutate(current);
        if (next) {
          stored.set(id, next);
          out.push(next);
        }
      }
      return out;
    },
  } as unknown as LinkBase;
  return { linkbase, calls, stored };
}

describe('UpdateBatcher', () => {
  it('writes updates made together in one call, in call order per record', async () => {
    const a = makeLinkRecord('http://a.test/');
    const b = makeLinkRecord('http://b.test/');
    const { linkbase, calls, stored } = countingLinkBase([a, b]);
    const batcher = new UpdateBatcher(linkbase);
    const results = await Promise.all([
      batcher.update(a.id, (record) => ({ ...record, inlinks: record.inlinks + 1 })),
      batcher.update(b.id, (record) => ({ ...record, depth: 7 })),
      batcher.update(a.id, (record) => ({ ...record, inlinks: record.inlinks * 10 })),
      batcher.update('unknown', (record) => record),
    ]);
    expect(calls).toHaveLength(1);
    expect(stored.get(a.id)!.inlinks).toBe(10);
    expect(results.map((record) => record?.id ?? null)).toEqual([a.id, b.id, a.id, null]);
  });

  it('answers null when no mutation changed the record, and passes failures to every caller', async () => {
    const a = makeLinkRecord('http://a.test/');
    const batcher = new UpdateBatcher(countingLinkBase([a]).linkbase);
    expect(await batcher.update(a.id, () => null)).toBeNull();
    const failing = new UpdateBatcher(countingLinkBase([a], true).linkbase);
    await expect(
      Promise.all([
        failing.update(a.id, (r) => ({ ...r, depth: 1 })),
        failing.update(a.id, (r) => ({ ...r, depth: 2 })),
      ]),
    ).rejects.toThrow('cluster down');
  });
});
