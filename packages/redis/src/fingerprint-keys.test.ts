import calculateSlot from 'cluster-key-slot';
import { describe, expect, it } from 'vitest';
import { fingerprintKey, groupBySlot, ttlArgument } from './fingerprint-keys.js';
import { FingerprintArgumentError } from './redis-errors.js';

describe('fingerprintKey', () => {
  it('is prefix, namespace, colon, key', () => {
    expect(fingerprintKey('crawler:', 'digest', '9f86d081')).toBe('crawler:digest:9f86d081');
    expect(fingerprintKey('', 'simhash', 'band:3:ab')).toBe('simhash:band:3:ab');
  });

  it('refuses namespaces that could alias another namespace or pin a slot', () => {
    for (const namespace of ['', 'url:a', 'url{x}', 'url}']) {
      expect(() => fingerprintKey('crawler:', namespace, 'k')).toThrow(FingerprintArgumentError);
    }
  });

  it('spreads keys over the slots of all three masters of a 3-way cluster', () => {
    const slots = Array.from({ length: 3000 }, (_, i) => calculateSlot(fingerprintKey('crawler:', 'url', `k${i}`)));
    const perThird = [0, 0, 0];
    for (const slot of slots) perThird[Math.min(2, Math.floor(slot / 5461))]! += 1;
    expect(new Set(slots).size).toBeGreaterThan(2500);
    for (const count of perThird) expect(count).toBeGreaterThan(850);
  });
});

describe('ttlArgument', () => {
  it('is whole milliseconds, at least one', () => {
    expect(ttlArgument(60_000)).toBe(60_000);
    expect(ttlArgument(1.2)).toBe(2);
    expect(ttlArgument(0)).toBe(1);
    expect(ttlArgument(-5)).toBe(1);
    expect(() => ttlArgument(Number.POSITIVE_INFINITY)).toThrow(FingerprintArgumentError);
    expect(() => ttlArgument(Number.NaN)).toThrow(FingerprintArgumentError);
  });
});

describe('groupBySlot', () => {
  it('groups by slot, keeps order within a slot and cuts long groups', () => {
    const items = ['a1', 'b1', 'a2', 'a3', 'b2', 'a4', 'a5'];
    const groups = groupBySlot(items, (item) => (item.startsWith('a') ? 7 : 9), 2);
    expect(groups).toEqual([
      { slot: 7, items: ['a1', 'a2'] },
      { slot: 7, items: ['a3', 'a4'] },
      { slot: 7, items: ['a5'] },
      { slot: 9, items: ['b1', 'b2'] },
    ]);
    expect(groupBySlot([], () => 0, 10)).toEqual([]);
  });
});
