import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** Parses `export NAME=value` lines (what deploy/local/stack-env.sh prints). */
export function parseExportLines(text: string): Record<string, string> {
  return Object.fromEntries(
    [...text.matchAll(/^export ([A-Z_][A-Z0-9_]*)=(.*)$/gm)].map(([, name, value]) => [name!, value!]),
  );
}

/**
 * How to reach the local stack: the variables already set win, else deploy/local/stack-env.sh.
 * Redis standalone only (no REDIS_CLUSTER_NODES), as the end-to-end test runs it.
 */
export function stackEnv(): Record<string, string> {
  const local = parseExportLines(execFileSync('bash', [`${repoRoot}deploy/local/stack-env.sh`], { encoding: 'utf8' }));
  const pick = (name: string) => process.env[name] ?? local[name] ?? '';
  return {
    KAFKA_BROKERS: pick('KAFKA_BROKERS'),
    ELASTICSEARCH_URL: pick('ELASTICSEARCH_URL'),
    HBASE_REST_URL: pick('HBASE_REST_URL'),
    HBASE_ZOOKEEPER_QUORUM: pick('HBASE_ZOOKEEPER_QUORUM'),
    REDIS_URL: pick('REDIS_URL'),
  };
}

/** Topics, index, table and key prefix no other run uses: benchmarks share the stack with tests. */
export function freshStackNames(label: string): Record<string, string> {
  const run = `${label}-${randomUUID().slice(0, 8)}`;
  return {
    CRAWLER_TOPIC_PREFIX: `${run}.`,
    ELASTICSEARCH_INDEX: `crawler-${run}`,
    HBASE_TABLE: `crawler_${run.replace(/-/g, '_')}`,
    REDIS_KEY_PREFIX: `crawler-${run}:`,
  };
}

/** Pids of the running stack services from `stack.sh status` lines (`name  address  up  pid N`). */
export function parseStackPids(statusText: string): number[] {
  return [...statusText.matchAll(/\bup\s+pid (\d+)/g)].map(([, pid]) => Number(pid));
}

export function stackPids(): number[] {
  try {
    // Its status lines go to stdout; what it says on stderr (the real-web bed's state) is not ours to print.
    const status = execFileSync('bash', [`${repoRoot}deploy/local/stack.sh`, 'status'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return parseStackPids(status);
  } catch {
    return [];
  }
}
