import {
  distinctPaceSteps,
  PACE_KEEP_MS,
  type FingerprintEntry,
  type FingerprintStore,
  type Logger,
  type PaceGrant,
  type PaceHold,
  type PaceRequest,
  type PutResult,
  type SetEntry,
} from '@crawler/core';
import calculateSlot from 'cluster-key-slot';
import { fingerprintKey, groupBySlot, ttlArgument } from './fingerprint-keys.js';
import { PipelineRunner, type PipelineEvent, type RoutedCommand } from './pipeline-runner.js';
import { openRedisConnection, type RedisClient } from './redis-connection.js';
import type { RedisConfig } from './redis-settings.js';

export interface RedisFingerprintStoreOptions {
  /** Called once per pipeline sent (a round trip to one node); for metrics and tests. */
  onPipeline?: (event: PipelineEvent) => void;
}

/**
 * Keys per multi-key command (script call, MGET, DEL). Bigger calls save client work but hold the
 * single-threaded server longer; 500 keys run in well under a millisecond.
 */
const MAX_KEYS_PER_COMMAND = 500;

/**
 * KEYS[i] takes ARGV[2i-1] with a TTL of ARGV[2i] ms unless it exists; an existing key keeps its
 * value, gets the TTL anew and its value is returned (false, i.e. nil, for a key just created).
 * One script call per slot group makes check, write and TTL refresh atomic for every key.
 */
const PUT_IF_ABSENT = `
local found = {}
for i, key in ipairs(KEYS) do
  local old = redis.call('GET', key)
  if old then
    redis.call('PEXPIRE', key, ARGV[2 * i])
    found[i] = old
  else
    redis.call('SET', key, ARGV[2 * i - 1], 'PX', ARGV[2 * i])
    found[i] = false
  end
end
return found`;

/** SADD and PEXPIRE together, so no set is ever left without a TTL. ARGV[1] is the TTL. */
const ADD_TO_SET = `
for i = 2, #ARGV, 1000 do
  redis.call('SADD', KEYS[1], unpack(ARGV, i, math.min(i + 999, #ARGV)))
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 0`;

/**
 * Reserves one request's slot on every key (a hash: n = next free slot, s = back-off streak), on
 * the server's clock. ARGV: maxWaitMs, notBefore (a wait the slot must not precede, from an
 * earlier step group), keepMs, then one spacing per key. Returns {reserved, waitMs, streak}.
 */
const PACE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local slot = now + tonumber(ARGV[2])
local streak = 0
for i, key in ipairs(KEYS) do
  local v = redis.call('HMGET', key, 'n', 's')
  local n = tonumber(v[1]) or 0
  if n > slot then slot = n end
  local s = tonumber(v[2]) or 0
  if s > streak then streak = s end
end
if slot - now > tonumber(ARGV[1]) then return {0, slot - now, streak} end
for i, key in ipairs(KEYS) do
  local next = slot + tonumber(ARGV[3 + i])
  redis.call('HSET', key, 'n', next)
  redis.call('PEXPIRE', key, next - now + tonumber(ARGV[3]))
end
return {1, slot - now, streak}`;

/** A key's next slot pushed to now + ARGV[1] (never earlier) and its streak set to ARGV[2]; ARGV[3] keepMs. */
const HOLD_PACE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local n = tonumber(redis.call('HGET', KEYS[1], 'n')) or 0
local next = math.max(n, now + tonumber(ARGV[1]))
redis.call('HSET', KEYS[1], 'n', next, 's', ARGV[2])
redis.call('PEXPIRE', KEYS[1], next - now + tonumber(ARGV[3]))
return 0`;

function defineScripts(client: RedisClient): void {
  // ioredis sends EVAL once per connection, EVALSHA afterwards; no SCRIPT LOAD round trip.
  client.defineCommand('fingerprintPutIfAbsent', { lua: PUT_IF_ABSENT });
  client.defineCommand('fingerprintAddToSet', { numberOfKeys: 1, lua: ADD_TO_SET });
  client.defineCommand('fingerprintPace', { lua: PACE });
  client.defineCommand('fingerprintHoldPace', { numberOfKeys: 1, lua: HOLD_PACE });
}

interface Pending {
  key: string;
  value: string;
  ttl: number;
  /** Index of the entry that sends this key; later duplicates only read its result. */
  index: number;
}

/** FingerprintStore on a standalone Redis or a Redis Cluster (REDIS_CLUSTER_NODES). */
class RedisFingerprintStore implements FingerprintStore {
  private readonly slotOf: (key: string) => number;

  constructor(
    private readonly prefix: string,
    private readonly runner: PipelineRunner,
    cluster: boolean,
  ) {
    // Standalone has no slots: every key goes to one group, cut only by MAX_KEYS_PER_COMMAND.
    this.slotOf = cluster ? calculateSlot : () => 0;
  }

  async putIfAbsent(entries: FingerprintEntry[]): Promise<PutResult[]> {
    const keys = entries.map((entry) => fingerprintKey(this.prefix, entry.namespace, entry.key));
    const sent = new Map<string, Pending>();
    keys.forEach((key, index) => {
      const entry = entries[index]!;
      const ttl = ttlArgument(entry.ttlMs);
      const first = sent.get(key);
      // The first entry of a key wins; a later one is a hit on it, whose TTL refresh comes last.
      if (first) first.ttl = ttl;
      else sent.set(key, { key, value: entry.value, ttl, index });
    });
    const groups = groupBySlot([...sent.values()], (pending) => this.slotOf(pending.key), MAX_KEYS_PER_COMMAND);
    const replies = await this.runner.execute(
      'putIfAbsent',
      groups.map(({ slot, items }) => ({
        slot,
        method: 'fingerprintPutIfAbsent',
        args: [items.length, ...items.map((item) => item.key), ...items.flatMap((item) => [item.value, item.ttl])],
      })),
    );
    const results = new Array<PutResult>(entries.length);
    groups.forEach(({ items }, group) => {
      const found = replies[group] as (string | null)[];
      items.forEach((item, position) => {
        const existing = found[position] ?? null;
        results[item.index] = existing === null ? { created: true, existing: null } : { created: false, existing };
      });
    });
    return keys.map((key, index) => {
      const first = sent.get(key)!;
      if (first.index === index) return results[index]!;
      const won = results[first.index]!;
      return { created: false, existing: won.created ? first.value : won.existing };
    });
  }

  async get(namespace: string, keys: string[]): Promise<(string | null)[]> {
    const items = keys.map((key, index) => ({ key: fingerprintKey(this.prefix, namespace, key), index }));
    const groups = groupBySlot(items, (item) => this.slotOf(item.key), MAX_KEYS_PER_COMMAND);
    const replies = await this.runner.execute(
      'get',
      groups.map(({ slot, items: group }) => ({ slot, method: 'mget', args: group.map((item) => item.key) })),
    );
    const values = new Array<string | null>(keys.length).fill(null);
    groups.forEach(({ items: group }, position) => {
      const found = replies[position] as (string | null)[];
      group.forEach((item, offset) => {
        values[item.index] = found[offset] ?? null;
      });
    });
    return values;
  }

  async set(entries: FingerprintEntry[]): Promise<void> {
    // One SET per entry in batch order: a key given twice ends with its last value.
    await this.runner.execute(
      'set',
      entries.map((entry): RoutedCommand => {
        const key = fingerprintKey(this.prefix, entry.namespace, entry.key);
        return { slot: this.slotOf(key), method: 'set', args: [key, entry.value, 'PX', ttlArgument(entry.ttlMs)] };
      }),
    );
  }

  async delete(namespace: string, keys: string[]): Promise<void> {
    const groups = groupBySlot(
      keys.map((key) => fingerprintKey(this.prefix, namespace, key)),
      (key) => this.slotOf(key),
      MAX_KEYS_PER_COMMAND,
    );
    await this.runner.execute(
      'delete',
      groups.map(({ slot, items }) => ({ slot, method: 'del', args: items })),
    );
  }

  async addToSet(namespace: string, key: string, members: string[], ttlMs: number): Promise<void> {
    await this.addToSets([{ namespace, key, members, ttlMs }]);
  }

  async addToSets(entries: SetEntry[]): Promise<void> {
    await this.runner.execute(
      'addToSets',
      entries.map((entry): RoutedCommand => {
        const setKey = fingerprintKey(this.prefix, entry.namespace, entry.key);
        return {
          slot: this.slotOf(setKey),
          method: 'fingerprintAddToSet',
          args: [setKey, ttlArgument(entry.ttlMs), ...entry.members],
        };
      }),
    );
  }

  async members(namespace: string, keys: string[]): Promise<string[][]> {
    const replies = await this.runner.execute(
      'members',
      keys.map((key): RoutedCommand => {
        const setKey = fingerprintKey(this.prefix, namespace, key);
        return { slot: this.slotOf(setKey), method: 'smembers', args: [setKey] };
      }),
    );
    return replies as string[][];
  }

  /**
   * One script call per request when its keys share a slot (always on a standalone Redis): the
   * whole reservation is atomic. On a cluster, keys in other slots are reserved group after group,
   * each not before the previous group's slot; a later group that refuses leaves the earlier
   * groups' slots taken, which only ever spaces requests further apart.
   */
  async pace(requests: PaceRequest[]): Promise<PaceGrant[]> {
    const grants: PaceGrant[] = new Array(requests.length);
    let pending = requests.map((request, index) => ({
      index,
      maxWaitMs: request.maxWaitMs,
      groups: groupBySlot(
        distinctPaceSteps(request.steps).map((step) => ({
          step,
          key: fingerprintKey(this.prefix, step.namespace, step.key),
        })),
        (item) => this.slotOf(item.key),
        MAX_KEYS_PER_COMMAND,
      ),
      grant: { reserved: true, waitMs: 0, busyStreak: 0 } as PaceGrant,
    }));
    while (pending.length > 0) {
      const replies = await this.runner.execute(
        'pace',
        pending.map(({ groups, maxWaitMs, grant }): RoutedCommand => {
          const { slot, items } = groups[0]!;
          return {
            slot,
            method: 'fingerprintPace',
            args: [
              items.length,
              ...items.map((item) => item.key),
              Math.max(0, maxWaitMs - grant.waitMs),
              grant.waitMs,
              PACE_KEEP_MS,
              ...items.map((item) => Math.max(0, Math.round(item.step.spacingMs))),
            ],
          };
        }),
      );
      pending.forEach((entry, position) => {
        const [reserved, waitMs, streak] = replies[position] as [number, number, number];
        entry.grant = {
          reserved: reserved === 1,
          waitMs: Math.max(0, waitMs),
          busyStreak: Math.max(entry.grant.busyStreak, streak),
        };
        entry.groups.shift();
      });
      for (const entry of pending)
        if (!entry.grant.reserved || entry.groups.length === 0) grants[entry.index] = entry.grant;
      pending = pending.filter((entry) => entry.grant.reserved && entry.groups.length > 0);
    }
    return grants;
  }

  async holdPace(holds: PaceHold[]): Promise<void> {
    await this.runner.execute(
      'holdPace',
      holds.map((hold): RoutedCommand => {
        const key = fingerprintKey(this.prefix, hold.namespace, hold.key);
        return {
          slot: this.slotOf(key),
          method: 'fingerprintHoldPace',
          args: [key, Math.max(0, Math.round(hold.holdMs)), hold.busyStreak, PACE_KEEP_MS],
        };
      }),
    );
  }

  async close(): Promise<void> {
    await this.runner.close();
  }
}

/**
 * Connects in the background and returns at once; calls made before the connection is up wait for
 * it, each at most REDIS_COMMAND_TIMEOUT_MS.
 */
export function createRedisFingerprintStore(
  config: RedisConfig,
  logger: Logger,
  options: RedisFingerprintStoreOptions = {},
): FingerprintStore {
  const log = logger.child({ component: 'redis-fingerprints' });
  const connection = openRedisConnection(config, log);
  defineScripts(connection.client);
  const runner = new PipelineRunner(connection, { timeoutMs: config.commandTimeoutMs, logger: log, ...options });
  log.info({ mode: connection.mode, nodes: connection.nodes, keyPrefix: config.keyPrefix }, 'redis fingerprint store');
  return new RedisFingerprintStore(config.keyPrefix, runner, connection.mode === 'cluster');
}
