import { Socket } from 'node:net';
import { silentLogger, type FingerprintStore } from '@crawler/core';
import { describeFingerprintContract } from '@crawler/core/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PipelineEvent } from './pipeline-runner.js';
import { createRedisFingerprintStore } from './redis-fingerprint-store.js';
import type { RedisConfig } from './redis-settings.js';
import { deleteKeysWithPrefix, localRedisConfig, openMasters, scanKeys, type RedisMode } from './testing/index.js';

for (const mode of ['standalone', 'cluster'] as const) {
  describeFingerprintContract(`redis ${mode}`, async () => {
    const config = localRedisConfig(mode);
    return {
      store: createRedisFingerprintStore(config, silentLogger()),
      cleanup: async () => void (await deleteKeysWithPrefix(config)),
    };
  });
}

/** A store on its own random prefix, its pipelines recorded, its keys deleted afterwards. */
function useStore(mode: RedisMode): { config: RedisConfig; store: () => FingerprintStore; pipelines: PipelineEvent[] } {
  const config = localRedisConfig(mode);
  const pipelines: PipelineEvent[] = [];
  let store: FingerprintStore;
  beforeAll(() => {
    store = createRedisFingerprintStore(config, silentLogger(), { onPipeline: (event) => pipelines.push(event) });
  });
  afterAll(async () => {
    await store.close();
    await deleteKeysWithPrefix(config);
  });
  return { config, store: () => store, pipelines };
}

describe.each(['standalone', 'cluster'] as const)('redis %s: TTL', (mode) => {
  const { config, store } = useStore(mode);

  it('a hit sets the TTL anew, to the length the hit asks for', async () => {
    const { client, close } = await openMasters(config);
    try {
      const ttlOf = () => client.pttl(`${config.keyPrefix}url:refreshed`);
      // The hit asks for a TTL far above the first one: only a refresh lifts it past 5 s, with no wait and however slow the machine.
      await store().putIfAbsent([{ namespace: 'url', key: 'refreshed', value: 'a', ttlMs: 5000 }]);
      const before = await ttlOf();
      expect(before).toBeGreaterThan(0);
      expect(before).toBeLessThanOrEqual(5000);
      expect(await store().putIfAbsent([{ namespace: 'url', key: 'refreshed', value: 'b', ttlMs: 60_000 }])).toEqual([
        { created: false, existing: 'a' },
      ]);
      expect(await ttlOf()).toBeGreaterThan(5000);
      await store().addToSet('band', 'b1', ['x'], 5000);
      expect(await client.pttl(`${config.keyPrefix}band:b1`)).toBeLessThanOrEqual(5000);
      await store().addToSet('band', 'b1', ['y'], 60_000);
      expect(await client.pttl(`${config.keyPrefix}band:b1`)).toBeGreaterThan(5000);
      expect((await client.smembers(`${config.keyPrefix}band:b1`)).sort()).toEqual(['x', 'y']);
    } finally {
      await close();
    }
  });
});

describe.each(['standalone', 'cluster'] as const)('redis %s: empty calls', (mode) => {
  const { store, pipelines } = useStore(mode);

  it('answer without a round trip', async () => {
    expect(await store().putIfAbsent([])).toEqual([]);
    expect(await store().get('url', [])).toEqual([]);
    expect(await store().members('band', [])).toEqual([]);
    await store().set([]);
    await store().delete('url', []);
    expect(pipelines).toEqual([]);
    await store().addToSet('band', 'none', [], 1000);
    expect(await store().members('band', ['none'])).toEqual([[]]);
  });
});

describe('redis cluster: a 10k batch', () => {
  const { config, store, pipelines } = useStore('cluster');

  it('spreads over all three masters in one pipeline per master', async () => {
    const entries = Array.from({ length: 10_000 }, (_, i) => ({
      namespace: 'url',
      key: `k${i}`,
      value: `v${i}`,
      ttlMs: 60_000,
    }));
    // Connections to each master open on first use; warm them so only the batch is counted.
    await store().get(
      'url',
      Array.from({ length: 100 }, (_, i) => `warm-up${i}`),
    );
    pipelines.length = 0;
    // Counted at the socket too: one write per pipeline shows the batch really went out in one piece per node.
    const writes = vi.spyOn(Socket.prototype, 'write');
    const results = await store().putIfAbsent(entries);
    // The client's periodic CLUSTER SLOTS refresh may fall into the window; it is not ours.
    const socketWrites = writes.mock.calls.filter(
      ([data]) => !/^\*\d+\r\n\$7\r\ncluster\r\n/i.test(String(data)),
    ).length;
    writes.mockRestore();
    expect(results.every((result) => result.created)).toBe(true);

    expect(pipelines.filter((event) => event.node === 'redirected')).toEqual([]);
    expect(new Set(pipelines.map((event) => event.node)).size).toBe(3);
    expect(pipelines).toHaveLength(3);
    expect(socketWrites).toBe(3);

    const { masters, close } = await openMasters(config);
    try {
      const perMaster = await Promise.all(
        masters.map(async (master) => (await scanKeys(master, `${config.keyPrefix}url:`)).length),
      );
      expect(perMaster.reduce((sum, count) => sum + count, 0)).toBe(10_000);
      // Slots are split evenly across the three masters; no key prefix or hash tag skews that.
      for (const count of perMaster) expect(count).toBeGreaterThan(2800);
    } finally {
      await close();
    }

    pipelines.length = 0;
    const again = await store().putIfAbsent(entries);
    expect(again[9999]).toEqual({ created: false, existing: 'v9999' });
    expect(await store().get('url', ['k0', 'k5000', 'k9999', 'none'])).toEqual(['v0', 'v5000', 'v9999', null]);
    expect(pipelines.length).toBeLessThanOrEqual(6);
  });
});
