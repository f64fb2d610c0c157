import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** The addresses services and tests read; the same names the services' settings use. */
export const ADDRESS_VARIABLES = [
  'KAFKA_BROKERS',
  'ELASTICSEARCH_URL',
  'HBASE_REST_URL',
  'HBASE_ZOOKEEPER_QUORUM',
  'REDIS_URL',
] as const;
export type StackAddresses = Record<(typeof ADDRESS_VARIABLES)[number], string>;

/** What `deploy/local/stack-env.sh` prints for the stack instance this environment names (CRAWLER_STACK_PORT_OFFSET). */
export function localStackAddresses(): Record<string, string> {
  const text = execFileSync('bash', [`${repoRoot}deploy/local/stack-env.sh`], { encoding: 'utf8', env: process.env });
  return Object.fromEntries(
    [...text.matchAll(/^export ([A-Z_][A-Z0-9_]*)=(.*)$/gm)].map(([, name, value]) => [name!, value!]),
  );
}

/**
 * Where the stack is: the standard variables when set (a deployment, or `eval "$(stack-env.sh)"`),
 * else the local stack instance (the main one in CI, where nothing else runs).
 */
export function stackAddresses(): StackAddresses {
  const local = localStackAddresses();
  return Object.fromEntries(
    ADDRESS_VARIABLES.map((name) => [name, process.env[name] ?? local[name] ?? '']),
  ) as StackAddresses;
}
