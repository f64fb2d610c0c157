import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startOneProcessCrawl } from '@crawler/cli';
import { parseCrawlJob, silentLogger } from '@crawler/core';
import { benchCrawlOverrides } from './bench-crawl-settings.js';
import { sampleResources } from './resource-sampler.js';

export interface CrawlBenchResult {
  pages: number;
  seconds: number;
  perSecond: number;
  cpuSecondsPer1000: number;
  peakRssMb: number;
  stopReason: string;
}

/** The whole loop in one process on the embedded adapters, crawling the seeds to completion. */
export async function crawlEmbedded(
  seeds: string[],
  concurrency: number,
  maxTimeMs: number,
): Promise<CrawlBenchResult> {
  const outDir = mkdtempSync(join(tmpdir(), 'bench-crawl-'));
  const resources = sampleResources();
  const started = performance.now();
  const crawl = await startOneProcessCrawl({
    outDir,
    job: parseCrawlJob({ id: 'bench', seeds }),
    logger: silentLogger(),
    overrides: benchCrawlOverrides(concurrency, { embedded: true }),
  });
  const stopReason = await crawl.waitUntilDone({ maxTimeMs, tickMs: 50 });
  const seconds = (performance.now() - started) / 1000;
  const snapshot = await crawl.snapshot();
  await crawl.stop();
  const usage = resources.stop();
  rmSync(outDir, { recursive: true, force: true });
  const pages = snapshot.counters.outcomes.get('ok') ?? 0;
  return {
    pages,
    seconds,
    perSecond: pages / seconds,
    cpuSecondsPer1000: (usage.cpuSeconds / Math.max(pages, 1)) * 1000,
    peakRssMb: usage.peakRssMb,
    stopReason,
  };
}
