import { silentLogger, type FingerprintStore, type SeenEntry } from '@crawler/core';
import { MemoryFingerprintStore } from '@crawler/embedded';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisFingerprintStore } from './redis-fingerprint-store.js';
import { deleteKeysWithPrefix, localRedisConfig, openMasters, scanKeys } from './testing/index.js';

const DAY = 86_400_000;
const entries = (prefix: string, count: number): SeenEntry[] =>
  Array.from({ length: count }, (_, i) => ({ key: `${prefix}${i}`, marks: [`fetch-${i % 7}`, 'page'] }));

describe.each(['standalone', 'cluster'] as const)('redis %s: markSeen', (mode) => {
  const config = localRedisConfig(mode);
  let store: FingerprintStore;
  beforeAll(() => {
    store = createRedisFingerprintStore(config, silentLogger());
  });
  afterAll(async () => {
    await store.close();
    await deleteKeysWithPrefix(config);
  });

  it('answers as the memory adapter does, bit for bit, false positives included', async () => {
    const memory = new MemoryFingerprintStore();
    // Enough keys for several levels of a filter, queried with other marks and unknown keys.
    const batches = [entries('a', 40_000), entries('b', 40_000), [...entries('a', 5000), ...entries('c', 20_000)]];
    batches[2] = batches[2]!.map((entry, i) => (i % 2 === 0 ? { ...entry, marks: ['other', 'page'] } : entry));
    // Calls of a page's worth of links and more, each well within the command timeout on a busy machine.
    for (const batch of batches) {
      for (let start = 0; start < batch.length; start += 1000) {
        const part = batch.slice(start, start + 1000);
        const [fromRedis, fromMemory] = await Promise.all([
          store.markSeen('url', part, DAY),
          memory.markSeen('url', part, DAY),
        ]);
        expect(fromRedis).toEqual(fromMemory);
      }
    }
    await memory.close();
  });

  it('keeps each shard in one key per generation, spread over every master, expiring after two generations', async () => {
    const space = 'spread';
    await store.markSeen(space, entries('k', 2000), 60_000);
    const { masters, client, close } = await openMasters(config);
    try {
      const perMaster = await Promise.all(masters.map((master) => scanKeys(master, `${config.keyPrefix}${space}:`)));
      for (const keys of perMaster) expect(keys.length).toBeGreaterThan(0);
      const keys = perMaster.flat();
      expect(keys.length).toBe(64);
      const ttl = await client.pttl(keys[0]!);
      // Generation length 30 s: the current one ends within 30 s, then it serves 30 s as the previous.
      expect(ttl).toBeGreaterThan(30_000);
      expect(ttl).toBeLessThanOrEqual(60_000);
    } finally {
      await close();
    }
  });
});
