import {
  distinctPaceSteps,
  probeSeenEntry,
  seenGenerationAt,
  seenGenerationEnd,
  FOOTPRINT_KEEP_MS,
  FOOTPRINT_WINDOW_MS,
  PACE_KEEP_MS,
  PACE_PROBE_MS,
  type FingerprintEntry,
  type FingerprintStore,
  type FootprintWindow,
  type Logger,
  type PaceBlock,
  type PaceGrant,
  type PaceHold,
  type PaceRequest,
  type PutResult,
  type SeenEntry,
  type SeenResult,
  type SetEntry,
} from '@crawler/core';
import calculateSlot from 'cluster-key-slot';
import { fingerprintKey, groupBySlot, ttlArgument } from './fingerprint-keys.js';
import { PipelineRunner, type PipelineEvent, type RoutedCommand } from './pipeline-runner.js';
import { openRedisConnection, type RedisClient } from './redis-connection.js';
import type { RedisConfig } from './redis-settings.js';
import { MARK_SEEN_SCRIPT, seenFilterKey } from './seen-filter-script.js';

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
 * Reserves one request's slot on every key, on the server's clock. Each key is a hash: n (next
 * free slot), s (back-off streak), b/bs/p (blocked until, blocks in a row, probe out until) and
 * c<window>:<bucket> (slots per tenth of a window, for the ceilings). KEYS: the steps' hashes,
 * then the footprint's hash if any. ARGV: maxWaitMs, notBefore (a wait the slot must not precede,
 * from an earlier step group), keepMs, probeMs, the number of steps; per step its spacing, its
 * number of limits and each limit's window and max; then the footprint (1 or 0) with its window,
 * keep time, site, network and kind (p or a). Returns {reserved, waitMs, busy streak, limited by,
 * block streak, probe, new footprint window, requests in the window}.
 */
const PACE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local maxWait = tonumber(ARGV[1])
local slot = now + tonumber(ARGV[2])
local keep = tonumber(ARGV[3])
local probeMs = tonumber(ARGV[4])
local nsteps = tonumber(ARGV[5])
local a = 6
local steps = {}
local streak, bstreak, probe, limitedBy = 0, 0, false, 'spacing'
for i = 1, nsteps do
  local step = { key = KEYS[i], spacing = tonumber(ARGV[a]), limits = {}, f = {} }
  local nl = tonumber(ARGV[a + 1])
  a = a + 2
  for j = 1, nl do
    step.limits[j] = { tonumber(ARGV[a]), tonumber(ARGV[a + 1]) }
    a = a + 2
  end
  local h = redis.call('HGETALL', KEYS[i])
  for j = 1, #h, 2 do step.f[h[j]] = h[j + 1] end
  steps[i] = step
  local n = tonumber(step.f.n) or 0
  if n > slot then slot = n end
  streak = math.max(streak, tonumber(step.f.s) or 0)
  local b = tonumber(step.f.b) or 0
  if b > 0 then
    bstreak = math.max(bstreak, tonumber(step.f.bs) or 0)
    local wait = b - now
    if wait <= 0 then wait = (tonumber(step.f.p) or 0) - now end
    if wait > 0 then return {0, wait, streak, 'block', bstreak, 0, 0, 0} end
    probe = true
  end
end
local moved, rounds = true, 0
while moved and rounds < 50 do
  moved = false
  rounds = rounds + 1
  for i = 1, nsteps do
    for _, lim in ipairs(steps[i].limits) do
      local w, max = lim[1], lim[2]
      local bucket = math.max(1, math.floor(w / 10))
      local count, oldest = 0, nil
      for idx = math.floor((slot - w) / bucket), math.floor(slot / bucket) do
        local c = tonumber(steps[i].f['c' .. w .. ':' .. idx]) or 0
        if c > 0 and not oldest then oldest = idx end
        count = count + c
      end
      if count >= max and oldest then
        slot = (oldest + 1) * bucket + w
        moved = true
        limitedBy = 'limit'
      end
    end
  end
end
if slot - now > maxWait then return {0, slot - now, streak, limitedBy, bstreak, 0, 0, 0} end
for i = 1, nsteps do
  local step = steps[i]
  local next = math.max(tonumber(step.f.n) or 0, slot + step.spacing)
  redis.call('HSET', step.key, 'n', next)
  local ttl = next - now + keep
  for _, lim in ipairs(step.limits) do
    local w = lim[1]
    local bucket = math.max(1, math.floor(w / 10))
    redis.call('HINCRBY', step.key, 'c' .. w .. ':' .. math.floor(slot / bucket), 1)
    ttl = math.max(ttl, slot - now + w + bucket)
  end
  for field in pairs(step.f) do
    local w, idx = string.match(field, '^c(%d+):(-?%d+)$')
    if w then
      local bucket = math.max(1, math.floor(tonumber(w) / 10))
      if tonumber(idx) < math.floor((now - tonumber(w)) / bucket) - 1 then redis.call('HDEL', step.key, field) end
    end
  end
  if probe and (tonumber(step.f.b) or 0) > 0 then redis.call('HSET', step.key, 'p', slot + probeMs) end
  redis.call('PEXPIRE', step.key, ttl)
end
local created, requests = 0, 0
if tonumber(ARGV[a]) == 1 then
  local fk = KEYS[nsteps + 1]
  local fw, fkeep, kind = tonumber(ARGV[a + 1]), tonumber(ARGV[a + 2]), ARGV[a + 5]
  local w = math.floor(slot / fw) * fw
  requests = redis.call('HINCRBY', fk, w .. ':r', 1)
  if requests == 1 then
    created = 1
    redis.call('HSET', fk, 'site', ARGV[a + 3], 'net', ARGV[a + 4])
    for _, field in ipairs(redis.call('HKEYS', fk)) do
      local start = tonumber(string.match(field, '^(%d+):'))
      if start and start < now - fkeep then redis.call('HDEL', fk, field) end
    end
  end
  if kind == 'p' then
    redis.call('HINCRBY', fk, w .. ':p', 1)
    local lp = tonumber(redis.call('HGET', fk, 'lp'))
    if lp then
      local gap = math.abs(slot - lp)
      local min = tonumber(redis.call('HGET', fk, w .. ':m'))
      if not min or gap < min then redis.call('HSET', fk, w .. ':m', gap) end
      if slot > lp then redis.call('HSET', fk, 'lp', slot) end
    else
      redis.call('HSET', fk, 'lp', slot)
    end
    redis.call('HSETNX', fk, w .. ':f', slot)
    local last = tonumber(redis.call('HGET', fk, w .. ':l'))
    if not last or slot > last then redis.call('HSET', fk, w .. ':l', slot) end
  else
    redis.call('HINCRBY', fk, w .. ':a', 1)
  end
  redis.call('PEXPIRE', fk, fkeep)
end
return {1, slot - now, streak, limitedBy, bstreak, probe and 1 or 0, created, requests}`;

/** A key's next slot pushed to now + ARGV[1] (never earlier) and its streak set to ARGV[2]; ARGV[3] keepMs. */
const HOLD_PACE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local n = tonumber(redis.call('HGET', KEYS[1], 'n')) or 0
local next = math.max(n, now + tonumber(ARGV[1]))
redis.call('HSET', KEYS[1], 'n', next, 's', ARGV[2])
if redis.call('PTTL', KEYS[1]) < next - now + tonumber(ARGV[3]) then
  redis.call('PEXPIRE', KEYS[1], next - now + tonumber(ARGV[3]))
end
return 0`;

/** A key blocked for ARGV[1] ms (-1: cleared) as the ARGV[2]-th block in a row; ARGV[3] keepMs. */
const BLOCK_PACE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ms = tonumber(ARGV[1])
if ms < 0 then
  redis.call('HDEL', KEYS[1], 'b', 'bs', 'p')
  return 0
end
redis.call('HSET', KEYS[1], 'b', now + ms, 'bs', ARGV[2], 'p', 0)
if redis.call('PTTL', KEYS[1]) < ms + tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[1], ms + tonumber(ARGV[3])) end
return 0`;

function defineScripts(client: RedisClient): void {
  // ioredis sends EVAL once per connection, EVALSHA afterwards; no SCRIPT LOAD round trip.
  client.defineCommand('fingerprintPutIfAbsent', { lua: PUT_IF_ABSENT });
  client.defineCommand('fingerprintAddToSet', { numberOfKeys: 1, lua: ADD_TO_SET });
  client.defineCommand('fingerprintPace', { lua: PACE });
  client.defineCommand('fingerprintHoldPace', { numberOfKeys: 1, lua: HOLD_PACE });
  client.defineCommand('fingerprintBlockPace', { numberOfKeys: 1, lua: BLOCK_PACE });
  client.defineCommand('fingerprintMarkSeen', { lua: MARK_SEEN_SCRIPT });
}

const NO_GRANT: PaceGrant = {
  reserved: true,
  waitMs: 0,
  busyStreak: 0,
  limitedBy: 'spacing',
  blockStreak: 0,
  probe: false,
  windowRequests: 0,
};
/** The sorted set of footprint hashes (member: the hash's key after the namespace; score: its latest window). */
const FOOTPRINT_INDEX = 'index';

/** The hash tag that puts a key in `key`'s slot: its own tag, or the whole key as one. */
function hashTagOf(key: string): string {
  const open = key.indexOf('{');
  const close = open >= 0 ? key.indexOf('}', open + 1) : -1;
  return close > open + 1 ? key.slice(open, close + 1) : `{${key}}`;
}

/** The windows a footprint hash holds (fields <start>:r, :p, :a, :f, :l, :m). */
function footprintWindows(fields: Record<string, string>, since: number): FootprintWindow[] {
  const starts = new Set<number>();
  for (const field of Object.keys(fields)) {
    const match = /^(\d+):r$/.exec(field);
    if (match && Number(match[1]) >= since) starts.add(Number(match[1]));
  }
  const number = (field: string) => (fields[field] === undefined ? null : Number(fields[field]));
  return [...starts].map((start) => ({
    site: fields.site ?? '',
    network: fields.net ?? '',
    start,
    requests: number(`${start}:r`) ?? 0,
    pages: number(`${start}:p`) ?? 0,
    attachments: number(`${start}:a`) ?? 0,
    firstPageAt: number(`${start}:f`),
    lastPageAt: number(`${start}:l`),
    minIntervalMs: number(`${start}:m`),
  }));
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
   * groups' slots taken, which only ever spaces requests further apart. The footprint goes with
   * the last group, in a hash tagged like its last key; a new footprint window is indexed after.
   */
  async markSeen(namespace: string, entries: SeenEntry[], ttlMs: number): Promise<SeenResult[]> {
    const generation = seenGenerationAt(Date.now(), ttlArgument(ttlMs));
    const key = (shard: number, index: number) =>
      seenFilterKey(this.prefix, namespace, shard, generation.lengthMs, index);
    const items = entries.map((entry, index) => {
      const probe = probeSeenEntry(entry);
      return { index, probe, key: key(probe.shard, generation.current) };
    });
    // A shard's entries stay in order in one group, so a key given twice is seen the second time.
    const groups = groupBySlot(items, (item) => this.slotOf(item.key), MAX_KEYS_PER_COMMAND);
    const replies = await this.runner.execute(
      'markSeen',
      groups.map(({ slot, items: group }): RoutedCommand => {
        const pairs = new Map<number, number>();
        for (const { probe } of group) if (!pairs.has(probe.shard)) pairs.set(probe.shard, pairs.size + 1);
        const keys = [...pairs.keys()].flatMap((shard) => [
          key(shard, generation.current),
          key(shard, generation.current - 1),
        ]);
        const args = group.flatMap(({ probe }) => [
          pairs.get(probe.shard)!,
          probe.block,
          probe.start,
          probe.step,
          probe.marks.length,
          ...probe.marks.flatMap((mark) => [mark.start, mark.step]),
        ]);
        return {
          slot,
          method: 'fingerprintMarkSeen',
          args: [keys.length, ...keys, seenGenerationEnd(generation, generation.current), ...args],
        };
      }),
    );
    const results = new Array<SeenResult>(entries.length);
    groups.forEach(({ items: group }, position) => {
      const found = replies[position] as number[];
      group.forEach((item, offset) => {
        const reply = found[offset]!;
        results[item.index] = {
          seen: reply !== 0,
          marked: item.probe.marks.map((_, mark) => reply !== 0 && Math.floor((reply - 1) / 2 ** (mark + 1)) % 2 === 1),
        };
      });
    });
    return results;
  }

  async pace(requests: PaceRequest[]): Promise<PaceGrant[]> {
    const grants: PaceGrant[] = new Array(requests.length);
    let pending = requests.map((request, index) => {
      const groups = groupBySlot(
        distinctPaceSteps(request.steps).map((step) => ({
          step,
          key: fingerprintKey(this.prefix, step.namespace, step.key),
        })),
        (item) => this.slotOf(item.key),
        MAX_KEYS_PER_COMMAND,
      );
      const last = groups.at(-1)?.items.at(-1)?.key;
      const footprint =
        request.footprint && last
          ? {
              ...request.footprint,
              member: `${hashTagOf(last)}${request.footprint.site}|${request.footprint.network}`,
            }
          : null;
      return {
        index,
        maxWaitMs: request.maxWaitMs,
        groups,
        footprint,
        grant: NO_GRANT,
      };
    });
    const indexed: { namespace: string; member: string; start: number }[] = [];
    while (pending.length > 0) {
      const replies = await this.runner.execute(
        'pace',
        pending.map(({ groups, maxWaitMs, grant, footprint }): RoutedCommand => {
          const { slot, items } = groups[0]!;
          const counted = groups.length === 1 && footprint !== null;
          return {
            slot,
            method: 'fingerprintPace',
            args: [
              items.length + (counted ? 1 : 0),
              ...items.map((item) => item.key),
              ...(counted ? [fingerprintKey(this.prefix, footprint.namespace, footprint.member)] : []),
              Math.max(0, maxWaitMs - grant.waitMs),
              grant.waitMs,
              PACE_KEEP_MS,
              PACE_PROBE_MS,
              items.length,
              ...items.flatMap(({ step }) => [
                Math.max(0, Math.round(step.spacingMs)),
                step.limits?.length ?? 0,
                ...(step.limits ?? []).flatMap((limit) => [Math.round(limit.windowMs), Math.round(limit.max)]),
              ]),
              ...(counted
                ? [
                    1,
                    FOOTPRINT_WINDOW_MS,
                    FOOTPRINT_KEEP_MS,
                    footprint.site,
                    footprint.network,
                    footprint.kind === 'page' ? 'p' : 'a',
                  ]
                : [0]),
            ],
          };
        }),
      );
      pending.forEach((entry, position) => {
        const [reserved, waitMs, streak, limitedBy, blockStreak, probe, created, windowRequests] = replies[
          position
        ] as [number, number, number, PaceGrant['limitedBy'], number, number, number, number];
        entry.grant = {
          reserved: reserved === 1,
          waitMs: Math.max(0, waitMs),
          busyStreak: Math.max(entry.grant.busyStreak, streak),
          limitedBy: limitedBy === 'spacing' ? entry.grant.limitedBy : limitedBy,
          blockStreak: Math.max(entry.grant.blockStreak, blockStreak),
          probe: entry.grant.probe || probe === 1,
          windowRequests,
        };
        if (created === 1 && entry.footprint)
          indexed.push({
            namespace: entry.footprint.namespace,
            member: entry.footprint.member,
            start: Math.floor(Date.now() / FOOTPRINT_WINDOW_MS) * FOOTPRINT_WINDOW_MS,
          });
        entry.groups.shift();
      });
      for (const entry of pending)
        if (!entry.grant.reserved || entry.groups.length === 0) grants[entry.index] = entry.grant;
      pending = pending.filter((entry) => entry.grant.reserved && entry.groups.length > 0);
    }
    if (indexed.length > 0) await this.index(indexed);
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

  async blockPace(blocks: PaceBlock[]): Promise<void> {
    await this.runner.execute(
      'blockPace',
      blocks.map((block): RoutedCommand => {
        const key = fingerprintKey(this.prefix, block.namespace, block.key);
        return {
          slot: this.slotOf(key),
          method: 'fingerprintBlockPace',
          args: [
            key,
            block.blockedForMs === null ? -1 : Math.max(0, Math.round(block.blockedForMs)),
            block.streak,
            PACE_KEEP_MS,
          ],
        };
      }),
    );
  }

  async readFootprint(namespace: string, options: { site?: string } = {}): Promise<FootprintWindow[]> {
    const indexKey = fingerprintKey(this.prefix, namespace, FOOTPRINT_INDEX);
    const since = Date.now() - FOOTPRINT_KEEP_MS;
    const [members] = (await this.runner.execute('readFootprint', [
      { slot: this.slotOf(indexKey), method: 'zrangebyscore', args: [indexKey, since, '+inf'] },
    ])) as [string[]];
    const keys = members.map((member) => fingerprintKey(this.prefix, namespace, member));
    const hashes = (await this.runner.execute(
      'readFootprint',
      keys.map((key): RoutedCommand => ({ slot: this.slotOf(key), method: 'hgetall', args: [key] })),
    )) as Record<string, string>[];
    const windows = hashes.flatMap((fields) =>
      options.site === undefined || fields.site === options.site ? footprintWindows(fields, since) : [],
    );
    return windows.sort((a, b) => a.start - b.start || a.site.localeCompare(b.site));
  }

  /** New footprint windows go into the index the reader starts from; members older than the keep time leave it. */
  private async index(entries: { namespace: string; member: string; start: number }[]): Promise<void> {
    await this.runner.execute(
      'paceIndex',
      entries.flatMap(({ namespace, member, start }): RoutedCommand[] => {
        const key = fingerprintKey(this.prefix, namespace, FOOTPRINT_INDEX);
        const slot = this.slotOf(key);
        return [
          { slot, method: 'zadd', args: [key, start, member] },
          { slot, method: 'zremrangebyscore', args: [key, '-inf', start - FOOTPRINT_KEEP_MS] },
        ];
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
