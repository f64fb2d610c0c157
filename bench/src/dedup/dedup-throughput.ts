import { randomUUID } from 'node:crypto';
import { silentLogger, type FingerprintStore, type PageStore, type ParsedPage, type StageContext } from '@crawler/core';
import { createDedupStage, loadDedupConfig } from '@crawler/dedup';
import { MemoryFingerprintStore } from '@crawler/embedded';
import { createRedisFingerprintStore, loadRedisConfig, type RedisConfig } from '@crawler/redis';
import { corpusLabeled } from './labeled-webs.js';
import { createParsedPageBuilder } from './parsed-pages.js';
import { mapLimit } from './recrawl-experiment.js';
import { deleteRedisPrefix, redisServerCpuMs } from './redis-probe.js';

/** Pages decided at once, as the stage runner's default DEDUP_CONCURRENCY. */
const CONCURRENCY = 32;
const PASSES = 3;

export interface ThroughputRow {
  store: string;
  pages: number;
  /** Decisions per second of wall time (one process, CONCURRENCY pages at once). */
  pagesPerSecond: number;
  /** CPU of this process per page (user + system), best pass. */
  cpuMsPerPage: number;
  /** CPU the Redis servers spent per page (INFO cpu deltas, all nodes); null for the in-process store. */
  redisCpuMsPerPage: number | null;
}

/** A page store that keeps nothing: page writes are HBase's cost, measured in packages/hbase. */
export const discardPages: PageStore = {
  put: async () => undefined,
  get: async () => [],
  putRevisits: async () => undefined,
  getRevisits: async () => [],
  putRedirects: async () => undefined,
  getRedirects: async () => [],
  flush: async () => undefined,
  close: async () => undefined,
};

/** The article benchmark's pages and their variants (758 pages: new, duplicates, near duplicates), parsed once. */
export async function parsedCorpus(): Promise<ParsedPage[]> {
  const parse = createParsedPageBuilder();
  const web = corpusLabeled();
  let clock = Date.UTC(2026, 0, 1);
  const pages: ParsedPage[] = [];
  for (const page of web.pages)
    pages.push(
      await parse(
        {
          url: page.url,
          body: Buffer.from(page.html),
          finalUrl: page.url,
          depth: 1,
          mediaType: 'text/html',
          charset: 'utf-8',
          headers: {},
        },
        (clock += 1000),
        null,
      ),
    );
  return pages;
}

function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/**
 * One dedup worker's decisions per second: the whole stage (blocks, template, digests, SimHash,
 * band lookup and insert, URL seen-check, verdict cache) over the benchmark pages, CONCURRENCY at a
 * time, each pass on a fresh key prefix so every pass decides the same things. Wall time on a
 * shared machine measures the neighbours too, so CPU per page is reported beside it, for this
 * process and for the Redis servers.
 */
export async function measureThroughput(
  name: string,
  pages: readonly ParsedPage[],
  open: () => { store: FingerprintStore; redis: RedisConfig | null },
): Promise<ThroughputRow> {
  const settings = loadDedupConfig({ env: {} });
  let best: ThroughputRow | null = null;
  for (let pass = 0; pass < PASSES; pass++) {
    const { store, redis } = open();
    try {
      const stage = createDedupStage({ fingerprints: store, pages: discardPages, settings, logger: silentLogger() });
      await stage.handle(pages[0]!, {} as StageContext); // connections up before the clock starts
      const serverBefore = redis ? await redisServerCpuMs(redis) : 0;
      const [wallStart, cpuStart] = [performance.now(), cpuMs()];
      await mapLimit(pages.slice(1), CONCURRENCY, (page) => stage.handle(page, {} as StageContext));
      const [wall, cpu] = [performance.now() - wallStart, cpuMs() - cpuStart];
      const server = redis ? (await redisServerCpuMs(redis)) - serverBefore : null;
      const count = pages.length - 1;
      const row = {
        store: name,
        pages: count,
        pagesPerSecond: (count / wall) * 1000,
        cpuMsPerPage: cpu / count,
        redisCpuMsPerPage: server === null ? null : server / count,
      };
      if (!best || row.cpuMsPerPage < best.cpuMsPerPage) best = row;
    } finally {
      await store.close();
      if (redis) await deleteRedisPrefix(redis);
    }
  }
  return best!;
}

export function throughputStores(
  env: NodeJS.ProcessEnv = process.env,
): [string, () => { store: FingerprintStore; redis: RedisConfig | null }][] {
  const redis = (mode: 'standalone' | 'cluster') => () => {
    const base =
      mode === 'cluster'
        ? { REDIS_CLUSTER_NODES: env.REDIS_CLUSTER_NODES || '127.0.0.1:17001,127.0.0.1:17002,127.0.0.1:17003' }
        : { REDIS_URL: env.REDIS_URL || 'redis://127.0.0.1:16379' };
    const config = loadRedisConfig({ env: { ...base, REDIS_KEY_PREFIX: `bench-dedup-${randomUUID().slice(0, 8)}:` } });
    return { store: createRedisFingerprintStore(config, silentLogger()), redis: config };
  };
  return [
    ['in-process store', () => ({ store: new MemoryFingerprintStore(), redis: null })],
    ['Redis standalone', redis('standalone')],
    ['Redis Cluster (3 masters)', redis('cluster')],
  ];
}
