import { randomUUID } from 'node:crypto';
import { silentLogger } from '@crawler/core';
import {
  bandKeys,
  bandScheme,
  encodeIndexedPage,
  NearDuplicateIndex,
  SIMHASH_NAMESPACE,
  type IndexedPage,
} from '@crawler/dedup';
import { createRedisFingerprintStore, loadRedisConfig } from '@crawler/redis';
import { commandCost, deleteRedisPrefix, redisUsedMemory } from './redis-probe.js';

export interface ScaleRow {
  stored: number;
  /** Client time of one lookup (all of a SimHash's buckets, one pipelined read), median and 90th percentile. */
  lookupMicros: { median: number; p90: number };
  /** Entries the lookup read (other pages in the same buckets), mean. */
  candidates: number;
  /** Server CPU per lookup: microseconds per SMEMBERS (INFO commandstats, shared server) times the tables read. */
  serverMicrosPerLookup: number;
  /** Hashes within k bits found (queries are stored hashes with 3 bits flipped). */
  recall: number;
  /** Redis memory per indexed page. */
  bytesPerPage: number;
}

const LOOKUPS = 2000;
/** Pages per bulk insert (one addToSets call: a pipeline of 10 commands per page), and such calls at once. */
const INSERT_BATCH = 2000;
const INSERTS_IN_FLIGHT = 4;

/** Deterministic 64-bit values: the same pages at every step of every run. */
function* hashes(seed: bigint): Generator<bigint> {
  let state = seed;
  for (;;) {
    state ^= (state << 13n) & 0xffffffffffffffffn;
    state ^= state >> 7n;
    state ^= (state << 17n) & 0xffffffffffffffffn;
    yield state;
  }
}

function entry(body: bigint, i: number): IndexedPage {
  return {
    body,
    pairs: body ^ 0x5555555555555555n,
    title: null,
    specific: false,
    titleKey: null,
    tokens: 400,
    site: i % 1000,
    anchors: [],
    urlTag: (i >>> 0).toString(16).padStart(8, '0'),
    digest: `${i.toString(16).padStart(32, '0')}`,
  };
}

/**
 * Lookup cost of the permuted-block SimHash index in Redis as it fills, from 10 thousand to a
 * million pages (k = 3: 10 tables, 24-26-bit keys). Entries are random 64-bit hashes; queries are
 * stored hashes with 3 bits flipped, so each must find its page. The claim to check: the cost of
 * a lookup does not grow with the number of stored pages.
 */
export async function measureSimhashScale(
  steps: readonly number[] = [10_000, 100_000, 1_000_000],
  env: NodeJS.ProcessEnv = process.env,
): Promise<ScaleRow[]> {
  const config = loadRedisConfig({
    env: {
      REDIS_URL: env.REDIS_URL || 'redis://127.0.0.1:16379',
      REDIS_KEY_PREFIX: `bench-simhash-${randomUUID().slice(0, 8)}:`,
      REDIS_COMMAND_TIMEOUT_MS: '60000',
    },
  });
  const store = createRedisFingerprintStore(config, silentLogger());
  const index = new NearDuplicateIndex(store, { maxDistance: 3, ttlMs: 3600_000 });
  const scheme = bandScheme(3);
  const rows: ScaleRow[] = [];
  const bodies: bigint[] = [];
  const source = hashes(0x9e3779b97f4a7c15n);
  try {
    const memoryBefore = await redisUsedMemory(config);
    for (const target of steps) {
      // Filled in bulk, as many dedup workers would over time; the index's own add is one page at a time.
      while (bodies.length < target) {
        const calls: Promise<void>[] = [];
        for (let call = 0; call < INSERTS_IN_FLIGHT && bodies.length < target; call++) {
          const entries = [];
          for (let i = 0; i < INSERT_BATCH && bodies.length < target; i++) {
            const body = source.next().value as bigint;
            const member = encodeIndexedPage(entry(body, bodies.length));
            for (const key of bandKeys(scheme, body))
              entries.push({ namespace: SIMHASH_NAMESPACE, key, members: [member], ttlMs: 3600_000 });
            bodies.push(body);
          }
          calls.push(store.addToSets(entries));
        }
        await Promise.all(calls);
      }
      const memory = (await redisUsedMemory(config)) - memoryBefore;
      const before = await commandCost(config, 'smembers');
      const times: number[] = [];
      let candidates = 0;
      let found = 0;
      for (let q = 0; q < LOOKUPS; q++) {
        const stored = bodies[Math.floor((q * bodies.length) / LOOKUPS)]!;
        const query =
          stored ^ (1n << BigInt(q % 64)) ^ (1n << BigInt((q * 7 + 3) % 64)) ^ (1n << BigInt((q * 13 + 5) % 64));
        const started = performance.now();
        const read = await index.candidates(query);
        times.push((performance.now() - started) * 1000);
        candidates += read.length;
        if (read.some((page) => page.body === stored)) found++;
      }
      const after = await commandCost(config, 'smembers');
      times.sort((a, b) => a - b);
      rows.push({
        stored: bodies.length,
        lookupMicros: { median: times[Math.floor(times.length / 2)]!, p90: times[Math.floor(times.length * 0.9)]! },
        candidates: candidates / LOOKUPS,
        serverMicrosPerLookup: ((after.usec - before.usec) / Math.max(1, after.calls - before.calls)) * index.tables,
        recall: found / LOOKUPS,
        bytesPerPage: memory / bodies.length,
      });
    }
    return rows;
  } finally {
    await store.close();
    await deleteRedisPrefix(config);
  }
}
