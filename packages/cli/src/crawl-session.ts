import { join } from 'node:path';
import { createLogger, type CrawlJob } from '@crawler/core';
import pino from 'pino';
import { buildSummary, type CrawlSummary } from './crawl-summary.js';
import { startOneProcessCrawl, type OneProcessCrawl, type OneProcessCrawlOptions } from './one-process-crawl.js';
import { ProgressDisplay } from './progress-display.js';

export interface SessionOptions {
  outDir: string;
  job: CrawlJob;
  overrides: OneProcessCrawlOptions['overrides'];
  maxTimeMs?: number;
  quiet: boolean;
  /** Run on the real stack instead of embedded adapters. */
  stack?: boolean;
  env?: NodeJS.ProcessEnv;
  /** Runs with the crawl still open (link base readable) before it is stopped. */
  beforeStop?: (crawl: OneProcessCrawl) => Promise<void>;
}

/**
 * Runs an embedded crawl to its end with a live progress line, stops it cleanly on Ctrl-C, and
 * returns the summary. Logs go to crawl.log in the output folder, not over the progress line.
 */
export async function runCrawlSession(options: SessionOptions): Promise<CrawlSummary> {
  const logFile = join(options.outDir, 'crawl.log');
  const { mkdirSync } = await import('node:fs');
  mkdirSync(options.outDir, { recursive: true });
  const logger = createLogger('crawler', {
    destination: pino.destination({ dest: logFile, sync: false, mkdir: true }),
  });
  const crawl = await startOneProcessCrawl({
    outDir: options.outDir,
    job: options.job,
    logger,
    overrides: options.overrides,
    stack: options.stack,
    env: options.env,
  });
  const interrupt = new AbortController();
  const onSignal = () => interrupt.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const atStart = await crawl.snapshot();
  const progress = new ProgressDisplay(process.stderr, undefined, atStart);
  try {
    const reason = await crawl.waitUntilDone({
      maxTimeMs: options.maxTimeMs,
      signal: interrupt.signal,
      onTick: (snapshot) => !options.quiet && progress.update(snapshot, crawl.elapsedMs()),
    });
    const elapsed = crawl.elapsedMs();
    const snapshot = await crawl.snapshot();
    if (!options.quiet) {
      progress.update(snapshot, elapsed);
      progress.finish();
    }
    await options.beforeStop?.(crawl);
    return buildSummary(snapshot, reason, elapsed, crawl.storage(), atStart);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await crawl.stop();
    logger.flush();
  }
}
