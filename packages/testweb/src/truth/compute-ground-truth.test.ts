import { describe, expect, it } from 'vitest';
import { buildWebModel } from '../model/build-web.js';
import { resolveOptions } from '../options.js';
import { computeGroundTruth } from './compute-ground-truth.js';

const ORIGINS = Array.from({ length: 6 }, (_, i) => `http://127.0.0.1:${7000 + i}`);

describe('computeGroundTruth', () => {
  it('finds every page within 3 hops, so depth conventions (redirects as hops or not) cannot change the set', () => {
    const web = buildWebModel(resolveOptions({ seed: 5 }), ORIGINS);
    const full = computeGroundTruth(web, 0);
    expect(full.maxDepth).toBe(10);
    expect(computeGroundTruth({ ...web, maxDepth: 3 }, 0).pages).toEqual(full.pages);
    expect(computeGroundTruth({ ...web, maxDepth: 2 }, 0).pages.length).toBeLessThan(full.pages.length);
  });

  it('lists as changed exactly the pages whose content key changes in the round', () => {
    const web = buildWebModel(resolveOptions({ seed: 5 }), ORIGINS);
    const rounds = [1, 2, 3, 4].map((r) => computeGroundTruth(web, r));
    const rate = new Map(rounds[0]!.changeRates.map((c) => [c.url, c.probability]));
    for (const truth of rounds) {
      expect(truth.changed.every((u) => rate.get(u)! > 0)).toBe(true);
      expect(truth.pages.filter((u) => rate.get(u) === 1)).toEqual(truth.changed.filter((u) => rate.get(u) === 1));
    }
    // Pages sharing main content (duplicates, reprints) change together.
    for (const group of rounds[0]!.exactDuplicates) {
      for (const truth of rounds) expect(new Set(group.map((u) => truth.changed.includes(u))).size).toBe(1);
    }
  });
});
