import { parseArgs } from 'node:util';
import { silentLogger, urlId, type FingerprintStore, type Link } from '@crawler/core';
import { filterSeenLinks, URL_NAMESPACE } from '@crawler/dedup';
import { createRedisFingerprintStore, loadRedisConfig, type RedisConfig } from '@crawler/redis';
import { randomKeyPrefix } from '@crawler/redis/testing';
import { deleteRedisPrefix, redisServerCpuMs, redisUsedMemory } from './redis-probe.js';

/**
 * Redis memory per URL of dedup's URL seen-check, on a fresh key set of the stack's standalone Redis
 * (INFO memory used_memory before and after; the keys are deleted afterwards). Each size runs
 * filterSeenLinks on pages of 1,000 new links, as dedup does, then asks about other URLs to
 * measure the false-positive rate (those are marked too, so the rate is not understated). The
 * baseline is the seen-check before the filter, one Redis string per URL (putIfAbsent), in the
 * same run at --baseline URLs.
 *
 *   node bench/dist/dedup/seen-filter-bench.js --sizes 1000000,10000000 --baseline 200000
 */
const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000000,10000000' },
    baseline: { type: 'string', default: '200000' },
    queries: { type: 'string', default: '200000' },
    redis: { type: 'string', default: 'redis://127.0.0.1:16379' },
    json: { type: 'boolean', default: false },
  },
});

const TTL_MS = 30 * 86_400_000;
const PAGE_LINKS = 1000;
/** Calls in flight: enough to keep one Redis busy while this process hashes the next page. */
const IN_FLIGHT = 4;

interface Row {
  method: 'filter' | 'string per URL';
  urls: number;
  bytesPerUrl: number;
  falsePositiveRate: number | null;
  /** Redis CPU per URL marked (µs), on a server other helpers share: an upper bound. */
  serverUsPerUrl: number;
  seconds: number;
}

const link = (url: string): Link => ({ url, anchor: null, rel: null, source: 'a', lastmod: null, changefreq: null });

/** Runs `pages` calls of PAGE_LINKS links, IN_FLIGHT at a time; returns how many links were held back. */
async function runPages(pages: number, call: (page: number) => Promise<number>): Promise<number> {
  let next = 0;
  let held = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < pages) held += await call(next++);
    }),
  );
  return held;
}

function pageLinks(prefix: string, page: number): Link[] {
  return Array.from({ length: PAGE_LINKS }, (_, i) => link(`http://h${i % 997}.${prefix}.test/p/${page}/${i}`));
}

async function measure(method: Row['method'], urls: number): Promise<Row> {
  const config: RedisConfig = loadRedisConfig({
    env: { REDIS_URL: values.redis, REDIS_KEY_PREFIX: randomKeyPrefix('seenbench'), REDIS_COMMAND_TIMEOUT_MS: '60000' },
  });
  const store: FingerprintStore = createRedisFingerprintStore(config, silentLogger());
  try {
    const before = await redisUsedMemory(config);
    const cpuBefore = await redisServerCpuMs(config);
    const started = performance.now();
    const pages = Math.ceil(urls / PAGE_LINKS);
    await runPages(pages, async (page) => {
      const links = pageLinks('in', page);
      if (method === 'filter') {
        const source = { url: `http://src.test/${page}`, fetchedAt: 1_700_000_000_000 + page };
        return (await filterSeenLinks(store, links, source, TTL_MS)).seen;
      }
      const results = await store.putIfAbsent(
        links.map((l) => ({
          namespace: URL_NAMESPACE,
          key: urlId(l.url).slice(0, 20),
          value: `${page}:x`,
          ttlMs: TTL_MS,
        })),
      );
      return results.filter((result) => !result.created).length;
    });
    const seconds = (performance.now() - started) / 1000;
    const cpu = (await redisServerCpuMs(config)) - cpuBefore;
    const after = await redisUsedMemory(config);
    let falsePositiveRate: number | null = null;
    if (method === 'filter') {
      const queryPages = Math.ceil(Number(values.queries) / PAGE_LINKS);
      const held = await runPages(queryPages, async (page) => {
        const source = { url: `http://query.test/${page}`, fetchedAt: 1_800_000_000_000 + page };
        return (await filterSeenLinks(store, pageLinks('out', page), source, TTL_MS)).seen;
      });
      falsePositiveRate = held / (queryPages * PAGE_LINKS);
    }
    return {
      method,
      urls: pages * PAGE_LINKS,
      bytesPerUrl: (after - before) / (pages * PAGE_LINKS),
      falsePositiveRate,
      serverUsPerUrl: (cpu * 1000) / (pages * PAGE_LINKS),
      seconds,
    };
  } finally {
    await store.close();
    await deleteRedisPrefix(config);
  }
}

const rows: Row[] = [];
if (Number(values.baseline) > 0) rows.push(await measure('string per URL', Number(values.baseline)));
for (const size of values.sizes.split(',').map(Number)) rows.push(await measure('filter', size));

if (values.json) console.log(JSON.stringify(rows, null, 2));
else {
  console.log('| method | URLs | bytes per URL | false positives | Redis CPU µs per URL | seconds |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const row of rows)
    console.log(
      `| ${row.method} | ${row.urls.toLocaleString('en')} | ${row.bytesPerUrl.toFixed(1)} | ${
        row.falsePositiveRate === null ? '-' : `${(row.falsePositiveRate * 100).toFixed(3)}%`
      } | ${row.serverUsPerUrl.toFixed(1)} | ${row.seconds.toFixed(0)} |`,
    );
}
