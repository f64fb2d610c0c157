import { MemoryFingerprintStore } from '@crawler/embedded';
import { describe, expect, it } from 'vitest';
import { SiteLearning } from './site-learning.js';

describe('per-site render learning', () => {
  const options = { samples: 3, ttlMs: 60_000 };

  it('decides "skip" when no sample changed anything, "render" when one did', async () => {
    const store = new MemoryFingerprintStore();
    const learning = new SiteLearning(store, options);
    expect(await learning.record('quiet.test', 'p1', false)).toBe('learning');
    expect(await learning.record('quiet.test', 'p2', false)).toBe('learning');
    expect(await learning.record('quiet.test', 'p3', false)).toBe('skip');
    expect(await learning.record('busy.test', 'p1', false)).toBe('learning');
    expect(await learning.record('busy.test', 'p2', true)).toBe('learning');
    expect(await learning.record('busy.test', 'p3', false)).toBe('render');
    expect(await store.get('render-decision', ['quiet.test', 'busy.test', 'new.test'])).toEqual([
      'skip',
      'render',
      null,
    ]);
  });

  it('counts a redelivered page once, and shares decisions between fetchers through the store', async () => {
    const store = new MemoryFingerprintStore();
    const first = new SiteLearning(store, options);
    const second = new SiteLearning(store, options);
    await first.record('site.test', 'same', false);
    await second.record('site.test', 'same', false);
    expect(await second.record('site.test', 'other', false)).toBe('learning');
    expect(await second.record('site.test', 'third', false)).toBe('skip');
    expect(await first.decision('site.test')).toBe('skip');
  });

  it('learns again once the decision has expired', async () => {
    let now = 0;
    const store = new MemoryFingerprintStore({ now: () => now });
    const learning = new SiteLearning(store, { ...options, now: () => now });
    for (const page of ['a', 'b', 'c']) await learning.record('site.test', page, false);
    expect(await learning.decision('site.test')).toBe('skip');
    now += 61_000;
    expect(await learning.decision('site.test')).toBe('learning');
  });
});
