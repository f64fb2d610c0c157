import { SEEN_BLOCK_BITS, SEEN_BLOCK_BYTES, SEEN_LEVELS, SEEN_MARK_BITS } from '@crawler/core';
import { fingerprintKey } from './fingerprint-keys.js';

/**
 * The key of one shard's filter of one generation. Both generations of a shard share the hash tag,
 * so one script reads the previous and writes the current on any cluster node; the 64 shards'
 * tags spread a set over the slots. The generation length is in the name: a changed TTL starts new
 * filters instead of misreading old ones.
 */
export function seenFilterKey(
  prefix: string,
  namespace: string,
  shard: number,
  lengthMs: number,
  generation: number,
): string {
  return fingerprintKey(prefix, namespace, `{${namespace}.${shard}}${lengthMs}.${generation}`);
}

/**
 * markSeen on plain Redis commands, the memory adapter's algorithm (memory-seen-sets.ts) in Lua.
 * KEYS: per shard, its current then previous generation's filter. ARGV[1]: when the current
 * generation's filters may go (PEXPIREAT); then per entry: its shard's pair number, block hash,
 * bit walk's start and step (seenWalk), its number of marks and each mark's start and step. Returns per entry
 * 0 (new) or 1 + 2 * (bitmask of the marks found). GETRANGE reads a key's whole block in a level;
 * one BITFIELD sets its bits and adds to the load counter (the i64 at bit 0).
 */
export const MARK_SEEN_SCRIPT = `
local LEVELS = {${SEEN_LEVELS.map((level) => `{${level.keyBits},${level.startLoad},${level.firstBlock},${level.blocks}}`).join(',')}}
local BLOCK_BITS, BLOCK_BYTES, MARK_BITS = ${SEEN_BLOCK_BITS}, ${SEEN_BLOCK_BYTES}, ${SEEN_MARK_BITS}
local loads = {}
local function loadOf(key)
  local load = loads[key]
  if load == nil then
    load = tonumber(redis.call('BITFIELD', key, 'GET', 'i64', 0)[1])
    loads[key] = load
  end
  return load
end
local function levelAt(load)
  local level = 1
  while level < #LEVELS and LEVELS[level + 1][2] <= load do level = level + 1 end
  return level
end
local function hasBits(block, x, y, count)
  for j = 0, count - 1 do
    local byte = string.byte(block, math.floor(x / 8) + 1)
    if byte == nil or math.floor(byte / 2 ^ (7 - x % 8)) % 2 == 0 then return false end
    x, y = (x + y) % BLOCK_BITS, (y + j) % BLOCK_BITS
  end
  return true
end
local function find(key, item)
  local load = loadOf(key)
  if load == 0 then return nil end
  for level = levelAt(load), 1, -1 do
    local L = LEVELS[level]
    local first = (L[3] + item.block % L[4]) * BLOCK_BYTES
    local block = redis.call('GETRANGE', key, first, first + BLOCK_BYTES - 1)
    if hasBits(block, item.start, item.step, L[1]) then return block end
  end
  return nil
end
local function add(key, item, withMarks)
  local load = loadOf(key)
  local L = LEVELS[levelAt(load)]
  local base = (L[3] + item.block % L[4]) * BLOCK_BITS
  local args = {}
  local function walk(x, y, count)
    for j = 0, count - 1 do
      local n = #args
      args[n + 1], args[n + 2], args[n + 3], args[n + 4] = 'SET', 'u1', base + x, 1
      x, y = (x + y) % BLOCK_BITS, (y + j) % BLOCK_BITS
    end
  end
  walk(item.start, item.step, L[1])
  local units = L[1]
  for m = 1, #item.marks do
    if withMarks[m] then
      walk(item.marks[m][1], item.marks[m][2], MARK_BITS)
      units = units + MARK_BITS
    end
  end
  local n = #args
  args[n + 1], args[n + 2], args[n + 3], args[n + 4] = 'INCRBY', 'i64', 0, units
  redis.call('BITFIELD', key, unpack(args))
  loads[key] = load + units
end
local results, touched = {}, {}
local a = 2
while a <= #ARGV do
  local pair = tonumber(ARGV[a])
  local item = { block = tonumber(ARGV[a + 1]), start = tonumber(ARGV[a + 2]), step = tonumber(ARGV[a + 3]), marks = {} }
  local nm = tonumber(ARGV[a + 4])
  a = a + 5
  for m = 1, nm do
    item.marks[m] = { tonumber(ARGV[a]), tonumber(ARGV[a + 1]) }
    a = a + 2
  end
  local current, previous = KEYS[2 * pair - 1], KEYS[2 * pair]
  local block = find(current, item)
  local inCurrent = block ~= nil
  if not block then block = find(previous, item) end
  local mask, marked = 0, {}
  for m = 1, nm do
    marked[m] = block == nil or hasBits(block, item.marks[m][1], item.marks[m][2], MARK_BITS)
    if block and marked[m] then mask = mask + 2 ^ (m - 1) end
  end
  if not inCurrent then
    add(current, item, marked)
    touched[current] = true
  end
  results[#results + 1] = block and (1 + 2 * mask) or 0
end
for key in pairs(touched) do redis.call('PEXPIREAT', key, ARGV[1]) end
return results`;
