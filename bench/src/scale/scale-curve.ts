import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ScalePoint } from '../bench-results.js';
import { runPeerProcess, type PeerRun, type PeerSettings } from '../peers/peer-process.js';
import { rawGets } from '../raw-undici.js';
import { withFreshStack } from '../stack/stack-cleanup.js';
import { stackPids } from '../stack/stack-env.js';
import { startTestWebProcess } from '../test-web-process.js';
import type { TimeBudget } from '../time-budget.js';
import { prefillElasticsearch, prefillFileLinkBase } from './prefill.js';

export interface ScaleOptions {
  sizes: number[];
  modes: ('embedded' | 'stack')[];
  /** The fixed set of new pages crawled at every size. */
  hosts: number;
  pagesPerHost: number;
  concurrency: number;
  stack: Record<string, string> | null;
  budget: TimeBudget;
  log: (line: string) => void;
}

/** Guesses before anything was measured; later points scale from the previous one. */
const PREFILL_PER_SECOND = { embedded: 30_000, stack: 10_000 };
const FIRST_CRAWL_MS = { embedded: 30_000, stack: 90_000 };
/** Opening grows with the link base (loading the file, the scheduler's scan at start). */
const OPEN_MS_PER_KNOWN_URL = { embedded: 0.03, stack: 0.1 };
const runner = fileURLToPath(new URL('../peers/crawler-runner.js', import.meta.url));

/**
 * Cost per page as the link base grows: for each size, the link base is pre-filled with that
 * many known (fetched, not due) URLs, then the same fixed set of new pages is crawled on it.
 * Sizes run smallest first; a size that would not fit the budget is skipped, with its reason.
 */
export async function runScaleCurve(options: ScaleOptions): Promise<ScalePoint[]> {
  const { budget, log } = options;
  const web = await startTestWebProcess([
    '--profile',
    'bench',
    '--hosts',
    String(options.hosts),
    '--pages-per-host',
    String(options.pagesPerHost),
  ]);
  const points: ScalePoint[] = [];
  try {
    await rawGets(web.pages, options.concurrency, options.concurrency);
    // No page cap: the scheduler counts every URL of the link base ever fetched against it, pre-filled ones too.
    const settings: PeerSettings = {
      seeds: web.seeds,
      pages: web.pages,
      concurrency: options.concurrency,
      maxPages: 0,
      timeLimitMs: 300_000,
    };
    for (const mode of options.modes) {
      if (mode === 'stack' && !options.stack) {
        budget.skip('scale curve on the stack', 'the local stack is not reachable');
        continue;
      }
      let prefillRate = PREFILL_PER_SECOND[mode];
      let crawlMs = FIRST_CRAWL_MS[mode];
      let openMsPerUrl = OPEN_MS_PER_KNOWN_URL[mode];
      let previous = { size: 0, openMs: 0 };
      for (const size of options.sizes) {
        const what = `scale curve, ${mode}, ${size.toLocaleString('en-US')} known URLs`;
        const openMs = previous.openMs + (size - previous.size) * openMsPerUrl;
        if (!budget.allows(what, (size / prefillRate) * 1000 + openMs + crawlMs * 1.3)) continue;
        const started = performance.now();
        let prefillSeconds = 0;
        let run: PeerRun;
        try {
          if (mode === 'embedded') {
            const outDir = mkdtempSync(join(tmpdir(), 'bench-scale-'));
            try {
              prefillSeconds = await prefillFileLinkBase(outDir, size);
              // A million records need more than Node's default heap in the crawling process.
              run = await runPeerProcess(process.execPath, ['--max-old-space-size=8192', runner], {
                ...settings,
                extra: { outDir, countOnly: 'true' },
              });
            } finally {
              rmSync(outDir, { recursive: true, force: true });
            }
          } else {
            run = await withFreshStack(options.stack!, 'bench-scale', async (env) => {
              prefillSeconds = await prefillElasticsearch(env, size);
              return runPeerProcess(
                process.execPath,
                [runner],
                { ...settings, extra: { ...env, stack: 'true', countOnly: 'true' } },
                { stackPids: stackPids() },
              );
            });
          }
        } catch (error) {
          budget.skip(what, `failed: ${(error as Error).message.split('\n').slice(0, 3).join(' ')}`);
          continue;
        }
        const notes = run.done.notes as { setupSeconds: number; setupCpuSeconds: number };
        const pages = run.done.pages;
        const crawlSeconds = Math.max(run.done.lastPageSeconds - notes.setupSeconds, 1e-3);
        const point: ScalePoint = {
          mode,
          knownUrls: size,
          pages,
          pagesPerSecond: pages / crawlSeconds,
          cpuMsPerPage: ((run.cpuSeconds - notes.setupCpuSeconds) / Math.max(pages, 1)) * 1000,
          ...(run.stackCpuSeconds === undefined
            ? {}
            : { stackCpuMsPerPage: (run.stackCpuSeconds / Math.max(pages, 1)) * 1000 }),
          peakRssMb: run.peakRssMb,
          prefillSeconds,
          openSeconds: notes.setupSeconds,
          loadAverage: loadavg()[0]!,
        };
        points.push(point);
        if (prefillSeconds > 0) prefillRate = size / prefillSeconds;
        const slope = (notes.setupSeconds * 1000 - previous.openMs) / (size - previous.size);
        if (previous.size > 0 && slope > 0) openMsPerUrl = slope;
        previous = { size, openMs: notes.setupSeconds * 1000 };
        crawlMs = (run.done.seconds - notes.setupSeconds + 10) * 1000;
        log(
          `[scale] ${mode.padEnd(8)} ${size.toLocaleString('en-US').padStart(9)} known: ${Math.round(point.pagesPerSecond)} pages/s, ${point.cpuMsPerPage.toFixed(2)} CPU ms/page, ${point.peakRssMb} MB, prefill ${prefillSeconds.toFixed(0)} s, open ${point.openSeconds.toFixed(1)} s (${((performance.now() - started) / 1000).toFixed(0)} s)`,
        );
      }
    }
    return points;
  } finally {
    await web.stop();
  }
}
