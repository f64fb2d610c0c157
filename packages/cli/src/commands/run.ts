import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalUrl, ConfigError, loadCrawlJob, parseCrawlJob, replaceFile, type CrawlJob } from '@crawler/core';
import { allowListProblem, loadFetcherConfig, OWN_SITE_BUDGET } from '@crawler/fetcher';
import { formatNothingDue, formatSummary } from '../crawl-summary.js';
import { runCrawlSession } from '../crawl-session.js';
import { prepareOutputFolder } from '../output-folder.js';
import { findRefusedSeeds, formatRefusedSeeds, type RefusedSeed } from '../refused-seeds.js';
import { durationFlag, intFlag, parseFlags } from '../parse-flags.js';
import { textLines } from '../terminal-text.js';
import { UsageError } from '../usage-error.js';

export const runHelp = `Usage: crawler run [options]

Runs the whole loop (scheduler, fetcher, link extraction, dedup) in this process on the embedded
adapters: no servers needed. Pages go to WARC files, the link base, fingerprints and outlinks
not yet scheduled to folders; running again with the same --out resumes the crawl (also after
Ctrl-C or a kill) and re-checks the pages that have come due. Ctrl-C stops gracefully: requests
in flight finish and what they fetched is stored; a second Ctrl-C quits at once. A run with
nothing due says when the next page is, and keeps the previous crawl-summary.json.

Seeds and limits:
  --seed URL            a seed URL (repeatable)
  --seeds-file FILE     seed URLs, one per line (# comments allowed)
  --job FILE            a crawl job file (seeds, scope, limits); flags below override it
  --max-pages N         stop handing out new URLs after N
  --max-depth N         follow links at most N hops from a seed (default 20)
  --max-time DURATION   stop after this long, e.g. 90s, 10m (default: until done)
  --scope MODE          seeds (hosts of the seeds, default) | host | any

Fetching:
  --concurrency N       requests in flight in all (default 50)
  --per-host N          requests in flight per host (default 1)
  --delay-ms N          minimum delay between requests to one host (default 1000)
  --own-site            the sites are yours: no site budget (by default at most 100 requests per
                        site in 10 minutes, 5,000 a day, 2 s apart; docs/SITE-OPERATORS.md)
  --user-agent TEXT     User-Agent to send (keep a contact URL in it)
  --allow-address ADDR  admit a private/loopback address (repeatable): an IP, a CIDR range (at most
                        /8), or a host name (its addresses at start), each optionally with :PORT to
                        admit one origin only, e.g. 127.0.0.1:8080 or localhost:8080 for a local site.
                        Without it such addresses are refused; a run whose every seed is refused
                        says how to admit it and exits 1

Re-crawls:
  --clock-offset DURATION  run the scheduler's clock this far ahead, e.g. 2d: pages come due as if
                        that much time had passed (to re-check before they are due, or to test a
                        re-crawl); later visits are planned from the shifted clock
                        (SCHEDULER_CLOCK_OFFSET_MS)

Where:
  --stack               run on Kafka, Elasticsearch, Redis and HBase (configured by KAFKA_BROKERS,
                        ELASTICSEARCH_URL, REDIS_URL, HBASE_* …; for the local stack:
                        eval "$(deploy/local/stack-env.sh)") instead of embedded adapters

Output:
  --out DIR             output folder (default ./crawl-output): WARC files, link base,
                        fingerprints, outlinks in transit (bus/), crawl.log (warnings: bodies cut
                        at the size cap, pages whose links were capped, pages dropped as
                        duplicates), crawl-summary.json, footprint.json (what sites saw of the
                        crawl); crawler status, errors, page get and footprint read it with --out
                        DIR, also while the crawl runs. A new or empty folder, or one an earlier
                        run made (the crawl resumes); a folder with other files in it is refused
  --json                print the summary as JSON
  --quiet               no progress line (pages: distinct pages fetched in this run; answered:
                        requests answered, re-fetches included)
  -h, --help            this help

Every service setting can also be given by environment variable or a JSON file named by
CRAWLER_CONFIG; see docs/CONFIGURATION.md.

Exit code 0 when the crawl ran (or had nothing due), 1 when every seed was refused or the run
failed, 2 on bad usage or a bad setting.`;

export const flagSpec = {
  seed: { type: 'string', multiple: true },
  'seeds-file': { type: 'string' },
  job: { type: 'string' },
  'max-pages': { type: 'string' },
  'max-depth': { type: 'string' },
  'max-time': { type: 'string' },
  scope: { type: 'string' },
  concurrency: { type: 'string' },
  'per-host': { type: 'string' },
  'delay-ms': { type: 'string' },
  'own-site': { type: 'boolean' },
  'user-agent': { type: 'string' },
  'allow-address': { type: 'string', multiple: true },
  'clock-offset': { type: 'string' },
  out: { type: 'string' },
  stack: { type: 'boolean' },
  json: { type: 'boolean' },
  quiet: { type: 'boolean' },
} as const;

export async function runCommand(argv: string[]): Promise<number> {
  const { values } = parseFlags('run', argv, flagSpec);
  if (values.help) {
    process.stdout.write(`${runHelp}\n`);
    return 0;
  }
  const job = buildJob(values);
  if (job.seeds.length === 0)
    throw new UsageError('crawler run: no seeds: give --seed URL, --seeds-file FILE or --job FILE');
  const outDir = values.out ?? 'crawl-output';
  const fetcher: Record<string, unknown> = {};
  const concurrency = intFlag('run', 'concurrency', values.concurrency, 1);
  if (concurrency !== undefined) fetcher.concurrency = concurrency;
  const perHost = intFlag('run', 'per-host', values['per-host'], 1);
  if (perHost !== undefined) fetcher.perHostConcurrency = perHost;
  const delay = intFlag('run', 'delay-ms', values['delay-ms'], 0);
  if (delay !== undefined) fetcher.minDelayMs = delay;
  if (values['own-site']) Object.assign(fetcher, OWN_SITE_BUDGET);
  if (values['user-agent']) fetcher.userAgent = values['user-agent'];
  if (values['allow-address']) {
    const problem = allowListProblem(values['allow-address']);
    if (problem) throw new UsageError(`crawler run: --allow-address ${problem}`);
    fetcher.allowAddresses = values['allow-address'];
  }
  // The fetcher reads the job's content types and rendering rules from the file itself.
  if (values.job) fetcher.jobFile = values.job;
  const maxTimeMs = durationFlag('run', 'max-time', values['max-time']);
  const scheduler: Record<string, unknown> = {};
  const clockOffset = durationFlag('run', 'clock-offset', values['clock-offset']);
  if (clockOffset !== undefined) scheduler.clockOffsetMs = clockOffset;
  // A bad --user-agent or --allow-address is refused before the output folder is touched.
  loadFetcherConfig({ overrides: fetcher });
  await prepareOutputFolder('run', outDir, { fresh: false });
  let refused: RefusedSeed[] = [];
  const summary = await runCrawlSession({
    outDir,
    job,
    overrides: { fetcher, scheduler },
    maxTimeMs,
    quiet: values.quiet === true || values.json === true,
    stack: values.stack === true,
    beforeStop: async (crawl) => {
      refused = await findRefusedSeeds(crawl.linkbase, job);
    },
  });
  const summaryFile = join(outDir, 'crawl-summary.json');
  if (summary.stopReason === 'nothing due') {
    // A summary of zeros would hide what the last run that did something found.
    const kept = existsSync(summaryFile);
    process.stdout.write(
      values.json
        ? `${JSON.stringify(summary)}\n`
        : textLines(formatNothingDue(summary, summaryFile, kept).split('\n')),
    );
    return 0;
  }
  await replaceFile(summaryFile, `${JSON.stringify(summary, null, 2)}\n`);
  process.stdout.write(values.json ? `${JSON.stringify(summary)}\n` : `${formatSummary(summary)}\n`);
  if (refused.length > 0) process.stderr.write(textLines(formatRefusedSeeds(refused, job.seeds.length).split('\n')));
  // A run that could not fetch a single seed did nothing the user asked for.
  return refused.length === job.seeds.length ? 1 : 0;
}

function buildJob(values: {
  seed?: string[];
  'seeds-file'?: string;
  job?: string;
  'max-pages'?: string;
  'max-depth'?: string;
  scope?: string;
}): CrawlJob {
  const base = values.job ? loadCrawlJob(values.job) : parseCrawlJob({});
  const seeds = [...base.seeds];
  for (const seed of values.seed ?? []) seeds.push(checkedSeed(seed, '--seed'));
  if (values['seeds-file']) {
    let text: string;
    try {
      text = readFileSync(values['seeds-file'], 'utf8');
    } catch (error) {
      throw new UsageError(
        `crawler run: cannot read --seeds-file ${values['seeds-file']}: ${(error as Error).message}`,
      );
    }
    for (const line of text.split(/\r?\n/)) {
      const seed = line.replace(/#.*$/, '').trim();
      if (seed) seeds.push(checkedSeed(seed, values['seeds-file']));
    }
  }
  if (values.scope && !['seeds', 'host', 'any'].includes(values.scope))
    throw new UsageError(`crawler run: --scope must be seeds, host or any, got "${values.scope}"`);
  try {
    return parseCrawlJob({
      ...base,
      seeds: [...new Set(seeds)],
      scope: { ...base.scope, ...(values.scope ? { mode: values.scope } : {}) },
      maxPages: intFlag('run', 'max-pages', values['max-pages'], 1) ?? base.maxPages,
      maxDepth: intFlag('run', 'max-depth', values['max-depth'], 0) ?? base.maxDepth,
    });
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(`crawler run: ${error.message}`);
    throw error;
  }
}

function checkedSeed(seed: string, where: string): string {
  const canonical = canonicalUrl(seed);
  if (!canonical) throw new UsageError(`crawler run: ${where}: "${seed}" is not an http(s) URL`);
  return canonical;
}
