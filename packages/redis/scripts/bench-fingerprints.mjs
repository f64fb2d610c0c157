// putIfAbsent lookups per second in batches of 100, standalone and cluster, beside redis-benchmark
// SET/GET on the same servers. Uses the built package, so build first. Usage:
//   npx tsc -b packages/redis && node packages/redis/scripts/bench-fingerprints.mjs [--lookups 200000] [--batch 100] [--in-flight 1,8,32]
// Servers: REDIS_URL / REDIS_CLUSTER_NODES, else the local stack (16379; 17001-17003). Its keys are
// deleted at the end and carry a 10-minute TTL, so an interrupted run leaves nothing for long.
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { silentLogger } from '@crawler/core';
import { createRedisFingerprintStore } from '../dist/index.js';
import { deleteKeysWithPrefix, localRedisConfig } from '../dist/testing/index.js';

const { values } = parseArgs({
  options: {
    lookups: { type: 'string', default: '200000' },
    batch: { type: 'string', default: '100' },
    'in-flight': { type: 'string', default: '1,8,32' },
  },
});
const lookups = Number(values.lookups);
const batchSize = Number(values.batch);
const inFlightLevels = values['in-flight'].split(',').map(Number);

/** Runs `lookups` putIfAbsent entries as batches, `inFlight` batches at a time; returns lookups/s. */
async function measure(store, run, inFlight) {
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < lookups) {
        const first = next;
        next += batchSize;
        const entries = [];
        for (let i = first; i < Math.min(first + batchSize, lookups); i++) {
          entries.push({
            namespace: 'url',
            key: `${run}:${i.toString(16).padStart(8, '0')}`,
            value: `https://example.test/${i}`,
            ttlMs: 600_000,
          });
        }
        await store.putIfAbsent(entries);
      }
    }),
  );
  return lookups / (Number(process.hrtime.bigint() - started) / 1e9);
}

function redisBenchmark(mode, config) {
  const [host, port] = mode === 'cluster' ? config.clusterNodes[0].split(':') : new URL(config.url).host.split(':');
  const args = [
    '-h',
    host,
    '-p',
    port,
    ...(mode === 'cluster' ? ['--cluster'] : []),
    '-t',
    'set,get',
    '-n',
    '200000',
    '-P',
    '16',
    '-q',
  ];
  const output = execFileSync('redis-benchmark', args, { encoding: 'utf8' });
  const rates = Object.fromEntries(
    [...output.matchAll(/(SET|GET): ([\d.]+) requests per second/g)].map(([, name, rate]) => [name, Number(rate)]),
  );
  return { command: `redis-benchmark ${args.join(' ')}`, rates };
}

const format = (rate) => Math.round(rate).toLocaleString('en-US').padStart(10);

for (const mode of ['standalone', 'cluster']) {
  const config = localRedisConfig(mode);
  let pipelines = 0;
  const store = createRedisFingerprintStore(config, silentLogger(), { onPipeline: () => (pipelines += 1) });
  try {
    await store.get(
      'url',
      Array.from({ length: 100 }, (_, i) => `warm-up${i}`),
    ); // connects every node
    console.log(`\n${mode}: ${lookups.toLocaleString('en-US')} putIfAbsent lookups in batches of ${batchSize}`);
    for (const inFlight of inFlightLevels) {
      const run = `r${inFlight}`;
      pipelines = 0;
      const created = await measure(store, run, inFlight);
      const perBatch = pipelines / Math.ceil(lookups / batchSize);
      const hits = await measure(store, run, inFlight);
      console.log(
        `  ${String(inFlight).padStart(3)} batches in flight: new keys ${format(created)}/s, hits ${format(hits)}/s  (${perBatch.toFixed(2)} pipelines per batch)`,
      );
    }
  } finally {
    await store.close();
    await deleteKeysWithPrefix(config);
  }
  const { command, rates } = redisBenchmark(mode, config);
  console.log(`  ${command}\n      SET ${format(rates.SET)}/s, GET ${format(rates.GET)}/s`);
}
