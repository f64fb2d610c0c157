import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpGetPatiently, mainOf } from './test-support/http-get.js';
import { startTestWeb, type TestWeb } from './test-web.js';
import type { GroundTruth } from './truth/ground-truth.js';

async function mainContents(urls: string[]): Promise<Map<string, string | undefined>> {
  const entries = await Promise.all(urls.map(async (u) => [u, mainOf((await httpGetPatiently(u)).body)] as const));
  return new Map(entries);
}

describe('content rounds', () => {
  let web: TestWeb;
  let round0: GroundTruth;
  let urls: string[];
  beforeAll(async () => {
    web = await startTestWeb();
    round0 = web.groundTruth();
    // The slow page never changes (rate 0) and would only add its delay to every round.
    urls = round0.pages.filter((p) => !round0.slow.some((s) => s.url === p));
  });
  afterAll(() => web.close());

  it('starts at round 0 with nothing changed and uses the rates 0, 0.1, 0.3 and 1', () => {
    expect(web.round).toBe(0);
    expect(round0.changed).toEqual([]);
    expect(new Set(round0.changeRates.map((c) => c.probability))).toEqual(new Set([0, 0.1, 0.3, 1]));
    expect(round0.changeRates.map((c) => c.url)).toEqual(round0.pages);
  });

  it('changes the main content of exactly the pages listed in `changed`', async () => {
    let before = await mainContents(urls);
    for (const round of [1, 2, 3]) {
      web.setRound(round);
      const truth = web.groundTruth();
      expect(truth.round).toBe(round);
      const after = await mainContents(urls);
      const differing = urls.filter((u) => before.get(u) !== after.get(u));
      expect(differing).toEqual(truth.changed.filter((u) => urls.includes(u)));
      const rate = new Map(truth.changeRates.map((c) => [c.url, c.probability]));
      expect(differing.every((u) => rate.get(u)! > 0)).toBe(true);
      expect(urls.filter((u) => rate.get(u) === 1).every((u) => differing.includes(u))).toBe(true);
      before = after;
    }
  });

  it('returns to the same content when a round is revisited', async () => {
    web.setRound(2);
    const first = await mainContents(urls.slice(0, 40));
    web.setRound(5);
    web.setRound(2);
    expect(await mainContents(urls.slice(0, 40))).toEqual(first);
  });

  it('rejects rounds that are not whole numbers >= 0', () => {
    expect(() => web.setRound(-1)).toThrow(/round/);
    expect(() => web.setRound(1.5)).toThrow(/round/);
  });
});
