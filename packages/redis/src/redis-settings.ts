import { loadConfig, setting, type ConfigOf, type LoadOptions } from '@crawler/core';
import { z } from 'zod';

const hostPort = z
  .string()
  .regex(/^(\[[0-9a-fA-F:.]+\]|[^\s:[\]]+):\d{1,5}$/, 'expected host:port, e.g. 10.0.0.5:6379');

/** Every Redis setting, with its environment variable and default. */
export const redisSettings = {
  // Secret because a URL may carry a password; its default is therefore spelled out in the doc.
  url: setting(
    'REDIS_URL',
    z
      .string()
      .regex(/^rediss?:\/\/[^\s]+$/, 'expected redis://[user:password@]host:port[/db] (rediss:// for TLS)')
      .default('redis://127.0.0.1:6379'),
    'Standalone Redis server, redis://[user:password@]host:port[/db] or rediss:// for TLS (default redis://127.0.0.1:6379). Ignored when REDIS_CLUSTER_NODES is set.',
    { secret: true },
  ),
  clusterNodes: setting(
    'REDIS_CLUSTER_NODES',
    z.array(hostPort).default([]),
    'Redis Cluster seed nodes, comma separated host:port; when set, cluster mode is used and REDIS_URL is ignored.',
  ),
  password: setting('REDIS_PASSWORD', z.string().min(1).optional(), 'Password (AUTH); wins over one in REDIS_URL.', {
    secret: true,
  }),
  username: setting('REDIS_USERNAME', z.string().min(1).optional(), 'ACL user name; wins over one in REDIS_URL.'),
  tls: setting('REDIS_TLS', z.boolean().default(false), 'Connect with TLS (implied by a rediss:// URL).'),
  keyPrefix: setting(
    'REDIS_KEY_PREFIX',
    // A hash tag here would send every key to one cluster slot.
    z
      .string()
      .regex(/^[^{}\s]*$/, 'must not contain spaces or { } (a hash tag would put every key in one cluster slot)')
      .default('crawler:'),
    'Prefix of every key, so several crawls or apps can share one Redis.',
  ),
  commandTimeoutMs: setting(
    'REDIS_COMMAND_TIMEOUT_MS',
    z.number().int().min(10).max(600_000).default(5000),
    'Longest one store call (a whole batch, waiting for a connection included) may take before it fails with a retriable BackendError.',
  ),
};

export type RedisConfig = ConfigOf<typeof redisSettings>;

export function loadRedisConfig(options?: LoadOptions): RedisConfig {
  return loadConfig('redis', redisSettings, options);
}
