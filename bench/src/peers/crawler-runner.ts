import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startOneProcessCrawl } from '@crawler/cli';
import { parseCrawlJob, silentLogger } from '@crawler/core';
import { benchCrawlOverrides } from '../bench-crawl-settings.js';
import { runPeer } from './runner-main.js';

/**
 * This project's whole loop in one process: embedded adapters, or with `extra.stack` the real
 * ones (Kafka, Elasticsearch, Redis, HBase) named by `extra` (fresh topics, index, table, keys).
 * `extra.outDir` reuses a data folder (the scale curve pre-fills its link base there), and
 * `extra.countOnly` skips listing the fetched URLs (a scan of the whole link base).
 */
await runPeer(async (config) => {
  const stack = config.extra?.stack === 'true';
  const countOnly = config.extra?.countOnly === 'true';
  const outDir = config.extra?.outDir ?? mkdtempSync(join(tmpdir(), 'bench-crawl-'));
  const env = { ...process.env, ...config.extra };
  return async () => {
    const started = performance.now();
    const startedAt = Date.now();
    const cpuStart = process.cpuUsage();
    const crawl = await startOneProcessCrawl({
      outDir,
      job: parseCrawlJob({ id: 'bench', seeds: config.seeds, maxPages: config.maxPages }),
      logger: silentLogger(),
      overrides: benchCrawlOverrides(config.concurrency, { embedded: !stack, userAgent: config.userAgent }),
      stack,
      env,
    });
    // Setup (topics, index, loading a pre-filled link base) is reported apart, so the scale curve can leave it out.
    const setupSeconds = (performance.now() - started) / 1000;
    const setupCpu = process.cpuUsage(cpuStart);
    let pages = 0;
    let last = started;
    const stopReason = await crawl.waitUntilDone({
      maxTimeMs: config.timeLimitMs,
      tickMs: 50,
      onTick: (snapshot) => {
        const ok = snapshot.counters.outcomes.get('ok') ?? 0;
        if (ok > pages) [pages, last] = [ok, performance.now()];
      },
    });
    const seconds = (performance.now() - started) / 1000;
    let okUrls: string[] | undefined;
    if (!countOnly) {
      await crawl.linkbase.flush();
      okUrls = [];
      for await (const record of crawl.linkbase.scan())
        if (record.status === 'fetched' && (record.lastFetchAt ?? 0) >= startedAt) okUrls.push(record.url);
    }
    await crawl.stop();
    if (!config.extra?.outDir) rmSync(outDir, { recursive: true, force: true });
    const notes = { stopReason, setupSeconds, setupCpuSeconds: (setupCpu.user + setupCpu.system) / 1e6 };
    return { pages: okUrls?.length ?? pages, okUrls, seconds, lastPageSeconds: (last - started) / 1000, notes };
  };
});
