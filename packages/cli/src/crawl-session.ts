import { join } from 'node:path';
import { createLogger, CrawlerError, type CrawlJob, ErrorCode } from '@crawler/core';
import { buildSummary, type CrawlSummary } from './crawl-summary.js';
import { openCrawlLog } from './crawl-log.js';
import { startOneProcessCrawl, type OneProcessCrawl, type OneProcessCrawlOptions } from './one-process-crawl.js';
import { ProgressDisplay } from './progress-display.js';
import { WriteFailureLatch } from './write-failure.js';

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

/** How long a stop may take (each stage drains for at most 10 s) before the command gives up on it. */
const STOP_BOUND_MS = 60_000;
/** How long the final count may take: a link base that stopped answering must not hold the command. */
const SNAPSHOT_BOUND_MS = 5_000;

/**
 * Runs an embedded crawl to its end with a live progress line, stops it cleanly on Ctrl-C or
 * SIGTERM, and returns the summary. Logs go to crawl.log in the output folder, not over the
 * progress line. A write the disk refuses (to a store or to crawl.log) stops the crawl at once and
 * is thrown as a WriteFailedError naming the path.
 */
export async function runCrawlSession(options: SessionOptions): Promise<CrawlSummary> {
  const failures = new WriteFailureLatch();
  const log = openCrawlLog(join(options.outDir, 'crawl.log'), failures);
  const logger = createLogger('crawler', { destination: log.destination });
  let crawl: OneProcessCrawl;
  try {
    crawl = await startOneProcessCrawl({
      outDir: options.outDir,
      job: options.job,
      logger,
      overrides: options.overrides,
      stack: options.stack,
      env: options.env,
      writeFailures: failures,
    });
  } catch (error) {
    await log.close();
    throw failures.failure ?? error;
  }
  const interrupt = new AbortController();
  const onSignal = () => {
    // Once: a second Ctrl-C finds no listener and ends the process at once (what is on disk stays consistent).
    if (!options.quiet) process.stderr.write('\nStopping: finishing what is in flight (Ctrl-C again quits at once)\n');
    interrupt.abort();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const stateUnavailable = () => {
    throw new CrawlerError(
      ErrorCode.CRAWL_STATE_UNAVAILABLE,
      `the link base did not answer within ${SNAPSHOT_BOUND_MS / 1000} s, so the crawl stopped without a summary`,
    );
  };
  let progress: ProgressDisplay | undefined;
  try {
    const atStart = await within(crawl.snapshot(), SNAPSHOT_BOUND_MS, stateUnavailable);
    const display = (progress = new ProgressDisplay(process.stderr, undefined, atStart));
    const reason = await crawl.waitUntilDone({
      maxTimeMs: options.maxTimeMs,
      signal: AbortSignal.any([interrupt.signal, failures.signal]),
      onTick: (snapshot) => !options.quiet && display.update(snapshot, crawl.elapsedMs()),
    });
    if (failures.failure) throw failures.failure;
    // What was fetched before the stop is counted: the pages in flight on Ctrl-C, for one.
    await within(crawl.drain(), STOP_BOUND_MS, () => undefined);
    if (failures.failure) throw failures.failure;
    const elapsed = crawl.elapsedMs();
    const snapshot = await within(crawl.snapshot({ withDue: true }), SNAPSHOT_BOUND_MS, stateUnavailable);
    if (!options.quiet) {
      display.update(snapshot, elapsed);
      display.finish();
    }
    await options.beforeStop?.(crawl);
    return buildSummary(snapshot, reason, elapsed, crawl.storage(), crawl.scheduler.now(), atStart);
  } catch (error) {
    throw failures.failure ?? error;
  } finally {
    // From here a second Ctrl-C or SIGTERM ends the process at once (the default action).
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    if (!options.quiet) progress?.finish();
    await stopWithin(crawl, STOP_BOUND_MS, failures);
    logger.flush();
    await log.close();
  }
}

/** Stops the crawl; a stop that fails after a write failure (the same full disk) or takes too long is not waited for. */
async function stopWithin(crawl: OneProcessCrawl, boundMs: number, failures: WriteFailureLatch): Promise<void> {
  try {
    await within(crawl.stop(), boundMs, () =>
      process.stderr.write(
        `crawler: the crawl did not stop within ${boundMs / 1000} s; exiting (unfinished work is fetched again on the next run)\n`,
      ),
    );
  } catch (error) {
    if (!failures.failure) throw error;
  }
}

/** The promise's value, or what `late` gives when it takes longer than `boundMs`. */
async function within<T, L>(promise: Promise<T>, boundMs: number, late: () => L): Promise<T | L> {
  let timer: NodeJS.Timeout | undefined;
  // Past the bound nobody awaits it: a late failure must not become an unhandled rejection.
  promise.catch(() => undefined);
  const timeout = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), boundMs)));
  try {
    const result = await Promise.race([promise, timeout]);
    return result === 'late' ? late() : result;
  } finally {
    clearTimeout(timer);
  }
}
