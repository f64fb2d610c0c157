import { ConfigError, type RuntimeConfig } from '@crawler/core';

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\]|0\.0\.0\.0|\[::\])$/i;
const LOCAL_LISTEN = /^(0\.0\.0\.0|::|localhost|127(\.\d{1,3}){3}|::1)$/i;

/**
 * Refuses a backend URL that would reach this process's own health server: HBase's REST gateway
 * and CRAWLER_HEALTH_PORT both default to 8080, and the gateway check would otherwise fail with
 * a 404 that points at HBase. The URL may carry a password, so only its port is printed.
 */
export function checkHealthPortClash(runtime: RuntimeConfig, group: string, variable: string, url: string): void {
  const parsed = new URL(url);
  const port = Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80));
  if (runtime.healthPort === 0 || port !== runtime.healthPort) return;
  if (!LOOPBACK.test(parsed.hostname) || !LOCAL_LISTEN.test(runtime.healthHost)) return;
  throw new ConfigError(
    `${group}: ${variable} points at port ${port} of this machine, where this service's own health server listens (CRAWLER_HEALTH_PORT=${runtime.healthPort}). ` +
      `Set ${variable} to the real address (e.g. http://hbase-rest:8080) or move the health endpoints with CRAWLER_HEALTH_PORT.`,
  );
}
