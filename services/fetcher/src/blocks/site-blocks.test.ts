import { silentLogger } from '@crawler/core';
import { MemoryFingerprintStore } from '@crawler/embedded';
import { describe, expect, it } from 'vitest';
import { SharedPacing } from '../politeness/shared-pacing.js';
import { SiteHolds } from '../politeness/site-holds.js';
import { SiteBlocks, type BlockVerdict } from './site-blocks.js';

const page = (url: string, status: number, body = 'x'.repeat(5000)) => ({
  url: `http://site.test${url}`,
  status,
  headers: {},
  body: Buffer.from(body),
});

function blocksWith(store = new MemoryFingerprintStore()) {
  const holds = new SiteHolds();
  const seen: BlockVerdict[] = [];
  const lifted: string[] = [];
  const pacing = new SharedPacing(store, silentLogger());
  const blocks = new SiteBlocks({
    backoffMs: 1000,
    maxBackoffMs: 5000,
    holds,
    shared: pacing,
    onBlock: (_site, verdict) => seen.push(verdict),
    onUnblock: (site) => lifted.push(site),
  });
  return { blocks, holds, seen, lifted, pacing, store };
}

describe('SiteBlocks', () => {
  it('blocks at once on a challenge page served with 200, and shares the block', async () => {
    const { blocks, holds, pacing } = blocksWith();
    expect(blocks.observe('site.test', page('/a', 200), false, 0)).toBeNull();
    const verdict = blocks.observe('site.test', page('/b', 200, '<title>Just a moment...</title>'), false, 0);
    expect(verdict).toEqual({ signal: 'challenge', blockedForMs: 1000, streak: 1 });
    expect(holds.heldFor('site.test')).toMatchObject({ reason: 'block' });
    await pacing.flush();
    const site = {
      site: 'site.test',
      budget: { requestsPer10Min: 0, requestsPerDay: 0, meanIntervalMs: 0 },
      kind: 'page' as const,
      network: 'n',
    };
    expect(await pacing.reserve('site.test', 0, 60_000, site)).toMatchObject({ reserved: false, limitedBy: 'block' });
  });

  it('blocks on a burst of 403/429, not on a few', () => {
    const { blocks } = blocksWith();
    for (const [i, status] of [403, 429, 200, 403, 403].entries())
      expect(blocks.observe('site.test', page(`/${i}`, status), false, 0)).toBeNull();
    expect(blocks.observe('site.test', page('/5', 429), false, 0)).toMatchObject({ signal: 'denials' });
  });

  it('blocks when different URLs collapse to one tiny body after real pages', () => {
    const { blocks } = blocksWith();
    const placeholder = '<html><body>Please come back later.</body></html>';
    // A site made only of tiny identical pages never collapsed: it is just small.
    for (let i = 0; i < 6; i++)
      expect(blocks.observe('tiny.test', page(`/${i}`, 200, placeholder), false, 0)).toBeNull();
    expect(blocks.observe('site.test', page('/real', 200), false, 0)).toBeNull();
    for (let i = 0; i < 3; i++)
      expect(blocks.observe('site.test', page(`/${i}`, 200, placeholder), false, 0)).toBeNull();
    expect(blocks.observe('site.test', page('/3', 200, placeholder), false, 0)).toMatchObject({ signal: 'collapse' });
  });

  it('renews a block whose probe still finds it, twice as long, and lifts it when the probe is answered', () => {
    const { blocks, holds, seen, lifted } = blocksWith();
    blocks.observe('site.test', page('/a', 200, '<title>Just a moment...</title>'), false, 0);
    expect(blocks.observe('site.test', page('/b', 403), true, 1)).toEqual({
      signal: 'denials',
      blockedForMs: 2000,
      streak: 2,
    });
    expect(blocks.observe('site.test', page('/c', 429), true, 2)).toMatchObject({ blockedForMs: 4000, streak: 3 });
    expect(blocks.observe('site.test', page('/d', 403), true, 5)).toMatchObject({ blockedForMs: 5000 });
    expect(blocks.observe('site.test', page('/e', 200), true, 6)).toBeNull();
    expect(holds.heldFor('site.test')).toBeNull();
    expect(holds.count('block')).toBe(0);
    expect(seen.map((verdict) => verdict.signal)).toEqual(['challenge', 'denials', 'denials', 'denials']);
    expect(lifted).toEqual(['site.test']);
  });

  it('counts answers of requests in flight when the block was recognized as that block, not new ones', () => {
    const { blocks, seen } = blocksWith();
    const wall = '<title>Just a moment...</title>';
    expect(blocks.observe('site.test', page('/a', 200, wall), false, 0)).toMatchObject({
      streak: 1,
      blockedForMs: 1000,
    });
    const again = blocks.observe('site.test', page('/b', 200, wall), false, 0);
    expect(again).toMatchObject({ signal: 'challenge', streak: 1 });
    expect(again!.blockedForMs).toBeLessThanOrEqual(1000);
    expect(seen).toHaveLength(1);
    // Its probe, later, still finds the wall: the second block in a row.
    expect(blocks.observe('site.test', page('/c', 200, wall), true, 0)).toMatchObject({
      streak: 2,
      blockedForMs: 2000,
    });
  });
});
