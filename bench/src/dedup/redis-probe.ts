import type { RedisConfig } from '@crawler/redis';
import { deleteKeysWithPrefix, openMasters } from '@crawler/redis/testing';

/** Fields of INFO <section> summed over every master (numbers only). */
async function infoSum(
  config: RedisConfig,
  section: string,
  pick: (fields: Map<string, string>) => number,
): Promise<number> {
  const inspector = await openMasters(config);
  try {
    let total = 0;
    for (const master of inspector.masters) {
      const fields = new Map(
        (await master.info(section))
          .split('\r\n')
          .filter((line) => line.includes(':'))
          .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1)] as [string, string]),
      );
      total += pick(fields);
    }
    return total;
  } finally {
    await inspector.close();
  }
}

/** CPU the Redis servers have used so far (user + system, main thread and children), in ms. */
export function redisServerCpuMs(config: RedisConfig): Promise<number> {
  return infoSum(
    config,
    'cpu',
    (fields) => 1000 * (Number(fields.get('used_cpu_user') ?? 0) + Number(fields.get('used_cpu_sys') ?? 0)),
  );
}

export function redisUsedMemory(config: RedisConfig): Promise<number> {
  return infoSum(config, 'memory', (fields) => Number(fields.get('used_memory') ?? 0));
}

/** Calls and microseconds the servers spent in one command so far (INFO commandstats, never reset: the servers are shared). */
export async function commandCost(config: RedisConfig, command: string): Promise<{ calls: number; usec: number }> {
  const parts = { calls: 0, usec: 0 };
  for (const key of ['calls', 'usec'] as const) {
    parts[key] = await infoSum(config, 'commandstats', (fields) =>
      Number(new RegExp(`(?:^|,)${key}=(\\d+)`).exec(fields.get(`cmdstat_${command}`) ?? '')?.[1] ?? 0),
    );
  }
  return parts;
}

/** Removes every key a run wrote (SCAN + DEL under its prefix; never FLUSHALL). */
export async function deleteRedisPrefix(config: RedisConfig): Promise<void> {
  await deleteKeysWithPrefix(config);
}
