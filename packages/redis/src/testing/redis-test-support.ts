import { randomUUID } from 'node:crypto';
import { Cluster, Redis } from 'ioredis';
import { parseClusterNode, parseRedisUrl } from '../redis-connection.js';
import { loadRedisConfig, type RedisConfig } from '../redis-settings.js';

export type RedisMode = 'standalone' | 'cluster';

/** A key prefix no other run uses, so tests can share servers and clean up after themselves. */
export function randomKeyPrefix(label = 'test'): string {
  return `${label}-${randomUUID().slice(0, 8)}:`;
}

/** The local stack's standalone Redis (deploy/local), or REDIS_URL when set; `userinfo` is put in as given. */
export function localRedisUrl(userinfo = ''): string {
  const url = process.env.REDIS_URL || 'redis://127.0.0.1:16379';
  return userinfo ? url.replace('://', `://${userinfo}@`) : url;
}

/** Settings for the local stack (deploy/local), or REDIS_URL / REDIS_CLUSTER_NODES when set. */
export function localRedisConfig(mode: RedisMode, env: Record<string, string> = {}): RedisConfig {
  const server =
    mode === 'cluster'
      ? { REDIS_CLUSTER_NODES: process.env.REDIS_CLUSTER_NODES || '127.0.0.1:17001,127.0.0.1:17002,127.0.0.1:17003' }
      : { REDIS_URL: localRedisUrl() };
  return loadRedisConfig({ env: { REDIS_KEY_PREFIX: randomKeyPrefix(), ...server, ...env } });
}

export interface RedisInspector {
  /** Follows the cluster's slot map, for commands on one key. */
  client: Redis | Cluster;
  /** One connection per master, to see where keys live. */
  masters: Redis[];
  close(): Promise<void>;
}

/** Plain ioredis clients beside the store, to look at what it wrote. */
export async function openMasters(config: RedisConfig): Promise<RedisInspector> {
  if (config.clusterNodes.length === 0) {
    const endpoint = parseRedisUrl(config.url);
    const client = new Redis({ host: endpoint.host, port: endpoint.port, db: endpoint.db, lazyConnect: true });
    await client.connect();
    return { client, masters: [client], close: async () => void (await client.quit()) };
  }
  const cluster = new Cluster(config.clusterNodes.map(parseClusterNode), { lazyConnect: true });
  await cluster.connect();
  return { client: cluster, masters: cluster.nodes('master'), close: async () => void (await cluster.quit()) };
}

function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}

/** Keys under `prefix` on every master, found with SCAN (never KEYS: other people use these servers). */
export async function scanKeys(master: Redis, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await master.scan(cursor, 'MATCH', `${escapeGlob(prefix)}*`, 'COUNT', 1000);
    cursor = next;
    keys.push(...found);
  } while (cursor !== '0');
  return keys;
}

/** Deletes every key under the config's prefix, node by node; never FLUSHALL. Returns how many. */
export async function deleteKeysWithPrefix(config: RedisConfig): Promise<number> {
  const { masters, close } = await openMasters(config);
  let deleted = 0;
  try {
    for (const master of masters) {
      const keys = await scanKeys(master, config.keyPrefix);
      // One UNLINK per key: keys found on one node still span many slots.
      if (keys.length > 0) await master.pipeline(keys.map((key) => ['unlink', key])).exec();
      deleted += keys.length;
    }
  } finally {
    await close();
  }
  return deleted;
}
