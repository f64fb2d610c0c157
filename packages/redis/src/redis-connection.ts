import { ConfigError, type Logger } from '@crawler/core';
import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import type { RedisConfig } from './redis-settings.js';
import { describeRedisError, isAuthError } from './redis-errors.js';

export type RedisClient = Redis | Cluster;

export interface RedisEndpoint {
  host: string;
  port: number;
  username?: string;
  password?: string;
  db: number;
  tls: boolean;
}

export interface RedisConnection {
  client: RedisClient;
  mode: 'standalone' | 'cluster';
  /** host:port of the server or the cluster seeds; safe to log. */
  nodes: string[];
  /** Strings that must never reach a log line or an error message. */
  secrets: string[];
  /** The latest connection error, to say why a call found no connection. */
  lastError(): unknown;
}

/**
 * Splits REDIS_URL into parts so REDIS_PASSWORD / REDIS_USERNAME can win over the URL's own (ioredis
 * lets the URL win) and so nothing but host:port is ever logged.
 */
export function parseRedisUrl(url: string): RedisEndpoint {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // The URL may hold a password, so neither it nor URL's own error (which quotes it) is shown.
    throw new ConfigError('REDIS_URL is not a valid URL; expected redis://[user:password@]host:port[/db]');
  }
  const db = parsed.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d+$/.test(db))
    throw new ConfigError(`REDIS_URL: the path must be a database number, e.g. redis://host:6379/0, not /${db}`);
  return {
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: parsed.port === '' ? 6379 : Number(parsed.port),
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    db: db === '' ? 0 : Number(db),
    tls: parsed.protocol === 'rediss:',
  };
}

export function parseClusterNode(node: string): { host: string; port: number } {
  const colon = node.lastIndexOf(':');
  return { host: node.slice(0, colon).replace(/^\[(.*)\]$/, '$1'), port: Number(node.slice(colon + 1)) };
}

// Reconnects forever in the background (a store outlives a Redis restart); calls never wait on it
// longer than their own deadline.
const retryStrategy = (attempt: number): number => Math.min(50 * 2 ** attempt, 2000);

/**
 * Options shared by the standalone client and every cluster node connection. Cluster nodes keep
 * ioredis' own policy of not reconnecting alone: the cluster refreshes its slot map instead.
 */
function nodeOptions(
  config: RedisConfig,
  credentials: { username?: string; password?: string },
  tls: boolean,
): RedisOptions {
  return {
    ...credentials,
    ...(tls ? { tls: {} } : {}),
    connectTimeout: config.commandTimeoutMs,
    // A command whose connection dropped is failed, not resent: it may have run, and a resent
    // putIfAbsent would then report our own write as a duplicate (a page never crawled).
    autoResendUnfulfilledCommands: false,
    maxRetriesPerRequest: 0,
  };
}

/** Opens the client (connecting in the background) and logs its state changes without secrets. */
export function openRedisConnection(config: RedisConfig, logger: Logger): RedisConnection {
  const secrets: string[] = [];
  const remember = (secret: string | undefined) => {
    if (secret) secrets.push(secret, encodeURIComponent(secret));
  };
  remember(config.password);
  let client: RedisClient;
  let mode: RedisConnection['mode'];
  let nodes: string[];
  if (config.clusterNodes.length > 0) {
    const credentials = {
      ...(config.username ? { username: config.username } : {}),
      ...(config.password ? { password: config.password } : {}),
    };
    const options: ClusterOptions = {
      redisOptions: nodeOptions(config, credentials, config.tls),
      clusterRetryStrategy: retryStrategy,
      // Calls wait for 'ready' themselves; nothing piles up in a queue while the cluster is away.
      enableOfflineQueue: false,
      slotsRefreshTimeout: Math.min(config.commandTimeoutMs, 2000),
      // Keep host names: ioredis would resolve them to IPs and TLS certificates would no longer match.
      ...(config.tls
        ? { dnsLookup: (address: string, callback: (error: null, address: string) => void) => callback(null, address) }
        : {}),
    };
    client = new Cluster(config.clusterNodes.map(parseClusterNode), options);
    mode = 'cluster';
    nodes = [...config.clusterNodes];
  } else {
    const endpoint = parseRedisUrl(config.url);
    remember(endpoint.password);
    const username = config.username ?? endpoint.username;
    const password = config.password ?? endpoint.password;
    client = new Redis({
      ...nodeOptions(
        config,
        { ...(username ? { username } : {}), ...(password ? { password } : {}) },
        config.tls || endpoint.tls,
      ),
      host: endpoint.host,
      port: endpoint.port,
      db: endpoint.db,
      enableOfflineQueue: false,
      retryStrategy,
    });
    mode = 'standalone';
    nodes = [`${endpoint.host}:${endpoint.port}`];
  }
  const lastError = watchConnection(client, { mode, nodes }, secrets, logger);
  return { client, mode, nodes, secrets, lastError };
}

/**
 * Logs each distinct connection problem once per outage rather than on every reconnect attempt,
 * and keeps the latest one. Listening to 'error' also stops ioredis printing errors itself.
 */
function watchConnection(
  client: RedisClient,
  where: { mode: string; nodes: string[] },
  secrets: string[],
  logger: Logger,
): () => unknown {
  let lastError: unknown;
  const logged = new Set<string>();
  const problem = (error: unknown, node?: string) => {
    lastError = error;
    const message = describeRedisError(error, secrets);
    if (logged.has(message)) return;
    logged.add(message);
    logger.warn({ ...where, node, error: message, auth: isAuthError(error) }, 'redis connection problem');
  };
  client.on('ready', () => {
    lastError = undefined;
    logged.clear();
    logger.info(where, 'redis ready');
  });
  client.on('error', (error: unknown) => problem(error));
  if (client instanceof Cluster) client.on('node error', (error: unknown, node: string) => problem(error, node));
  return () => lastError;
}
