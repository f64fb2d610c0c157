import { loadavg } from 'node:os';
import type { StageComparison } from '../bench-results.js';
import { runPackageScript } from './run-script.js';
import { parseRedisBench } from './script-output.js';

const SCRIPT = 'packages/redis/scripts/bench-fingerprints.mjs';
const LOOKUPS = 50_000;
const IN_FLIGHT = 8;

/**
 * Exact-digest lookups (the fingerprint store's putIfAbsent, as dedup registers a content digest)
 * against redis-benchmark SET and GET on the same server, by the Redis package's own script.
 */
export async function measureRedisStage(env: Record<string, string>): Promise<StageComparison[]> {
  const output = await runPackageScript(
    SCRIPT,
    ['--lookups', String(LOOKUPS), '--in-flight', String(IN_FLIGHT)],
    env,
    300_000,
  );
  const figures = parseRedisBench(output);
  if (!figures)
    return [
      {
        stage: 'Exact-digest lookups (Redis)',
        status: 'failed',
        note: `could not read ${SCRIPT} output:\n${output.slice(-800)}`,
      },
    ];
  const loadAverage = loadavg()[0]!;
  return figures.flatMap((figure) => [
    {
      stage: `Exact-digest lookups, new digests (Redis ${figure.mode})`,
      short: `Redis ${figure.mode}, new digests`,
      status: 'measured' as const,
      ours: {
        what: `putIfAbsent, batches of 100, ${IN_FLIGHT} in flight, lookups/s`,
        perSecond: figure.newKeysPerSecond,
      },
      limit: { what: 'redis-benchmark SET -P 16, requests/s', perSecond: figure.setPerSecond },
      ratio: figure.newKeysPerSecond / figure.setPerSecond,
      loadAverage,
    },
    {
      stage: `Exact-digest lookups, known digests (Redis ${figure.mode})`,
      short: `Redis ${figure.mode}, known digests`,
      status: 'measured' as const,
      ours: {
        what: `putIfAbsent hits, batches of 100, ${IN_FLIGHT} in flight, lookups/s`,
        perSecond: figure.hitsPerSecond,
      },
      limit: { what: 'redis-benchmark GET -P 16, requests/s', perSecond: figure.getPerSecond },
      ratio: figure.hitsPerSecond / figure.getPerSecond,
      loadAverage,
    },
  ]);
}
