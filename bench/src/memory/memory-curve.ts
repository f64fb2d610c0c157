import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startOneProcessCrawl } from '@crawler/cli';
import { parseCrawlJob, silentLogger } from '@crawler/core';
import { benchCrawlOverrides } from '../bench-crawl-settings.js';

/** The process's memory when the crawl had fetched `pages` pages. */
export interface MemoryPoint {
  pages: number;
  seconds: number;
  rssMb: number;
  /** The highest RSS seen since the previous point. */
  peakRssMb: number;
  heapUsedMb: number;
  externalMb: number;
}

export interface MemoryCurve {
  points: MemoryPoint[];
  pages: number;
  seconds: number;
  stopReason: string;
}

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

/**
 * The embedded crawl in this process from `seeds` to its end, its memory read every `tickMs` and
 * recorded each time another `every` pages were fetched (and once at the end). This process holds
 * nothing else: the sites are served by another.
 */
export async function crawlMemoryCurve(options: {
  seeds: string[];
  concurrency: number;
  every: number;
  maxTimeMs: number;
  tickMs?: number;
  onPoint?: (point: MemoryPoint) => void;
}): Promise<MemoryCurve> {
  const outDir = mkdtempSync(join(tmpdir(), 'bench-memory-'));
  const points: MemoryPoint[] = [];
  const started = performance.now();
  let peak = 0;
  let pages = 0;
  const record = () => {
    const usage = process.memoryUsage();
    peak = Math.max(peak, usage.rss);
    points.push({
      pages,
      seconds: (performance.now() - started) / 1000,
      rssMb: mb(usage.rss),
      peakRssMb: mb(peak),
      heapUsedMb: mb(usage.heapUsed),
      externalMb: mb(usage.external),
    });
    options.onPoint?.(points.at(-1)!);
    peak = 0;
  };
  try {
    const crawl = await startOneProcessCrawl({
      outDir,
      // No page cap: the crawl ends when the sites have no page left.
      job: parseCrawlJob({ id: 'memory-curve', seeds: options.seeds, maxPages: 0 }),
      logger: silentLogger(),
      overrides: benchCrawlOverrides(options.concurrency, { embedded: true }),
    });
    record();
    let next = options.every;
    const stopReason = await crawl.waitUntilDone({
      maxTimeMs: options.maxTimeMs,
      tickMs: options.tickMs ?? 50,
      onTick: (snapshot) => {
        pages = snapshot.counters.outcomes.get('ok') ?? 0;
        peak = Math.max(peak, process.memoryUsage.rss());
        if (pages < next) return;
        record();
        while (next <= pages) next += options.every;
      },
    });
    if (points.at(-1)!.pages !== pages) record();
    const seconds = (performance.now() - started) / 1000;
    await crawl.stop();
    return { points, pages, seconds, stopReason };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/**
 * How much the memory's high-water mark grew from the middle third of the crawl to the last: the
 * highest RSS seen over the last third of the pages against the highest over the middle third.
 * Peaks, not single readings: the heap saws up and down between collections. Flat is a few percent.
 */
export function lastThirdGrowth(points: MemoryPoint[]): number {
  const total = points.at(-1)!.pages;
  const peakOver = (from: number, to: number) =>
    Math.max(...points.filter((point) => point.pages > from && point.pages <= to).map((point) => point.peakRssMb));
  const middle = peakOver(total / 3, (total * 2) / 3);
  return (peakOver((total * 2) / 3, total) - middle) / middle;
}
