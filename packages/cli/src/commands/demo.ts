import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { parseCrawlJob, replaceFile, type LinkRecord } from '@crawler/core';
import { FULL_MIN_HOSTS, FULL_MIN_PAGES, startTestWeb } from '@crawler/testweb';
import { formatSummary } from '../crawl-summary.js';
import { runCrawlSession } from '../crawl-session.js';
import { prepareOutputFolder } from '../output-folder.js';
import { intFlag, parseFlags } from '../parse-flags.js';
import { checkAgainstTruth, formatTruthReport, type TruthReport } from '../truth-check.js';
import { OWN_SITE_BUDGET } from '@crawler/fetcher';

export const demoHelp = `Usage: crawler demo [options]

Starts the project's synthetic test web on 127.0.0.1 (hosts with robots.txt, redirects, errors,
duplicates, noisy templates, a spider trap, legacy charsets), crawls it with \`crawler run\` in this
process, and checks the result against the test web's ground truth.

  --seed N              test web seed: same seed, same web (default 1)
  --hosts N             content hosts (default 6)
  --pages-per-host N    pages per host (default 60)
  --out DIR             output folder (default ./crawl-output/demo): a new or empty folder, or one
                        an earlier demo or run made, which is emptied first
  --stack               crawl on Kafka, Elasticsearch, Redis and HBase instead of embedded adapters
                        (npm run stack:up; eval "$(deploy/local/stack-env.sh)"); each demo gets its
                        own topics, index, table and key prefix unless CRAWLER_TOPIC_PREFIX,
                        ELASTICSEARCH_INDEX, HBASE_TABLE or REDIS_KEY_PREFIX name them
  --json                print summary and ground-truth report as JSON
  --quiet               no progress line
  -h, --help            this help

Exit code 0 when the crawl matches the ground truth, 1 when it does not.`;

export const flagSpec = {
  seed: { type: 'string' },
  hosts: { type: 'string' },
  'pages-per-host': { type: 'string' },
  out: { type: 'string' },
  stack: { type: 'boolean' },
  json: { type: 'boolean' },
  quiet: { type: 'boolean' },
} as const;

/** Settings for crawling our own local site: admitted loopback address, no politeness delay, short timeouts. */
export const testWebOverrides = {
  fetcher: {
    allowAddresses: ['127.0.0.1'],
    minDelayMs: 0,
    ...OWN_SITE_BUDGET,
    delayFactor: 0,
    perHostConcurrency: 4,
    concurrency: 32,
    totalTimeoutMs: 2500,
    headersTimeoutMs: 2500,
    bodyTimeoutMs: 2000,
  },
  scheduler: { retryBaseMs: 300, retryMaxMs: 2000, tickMs: 50 },
};

/** A demo on the stack starts from nothing: its own topics, index, table and key prefix, unless the environment names them. */
function freshStackNames(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const run = randomUUID().slice(0, 8);
  const fresh = {
    CRAWLER_TOPIC_PREFIX: `demo-${run}.`,
    ELASTICSEARCH_INDEX: `crawler-demo-${run}`,
    HBASE_TABLE: `crawler_demo_${run}`,
    REDIS_KEY_PREFIX: `crawler-demo-${run}:`,
  };
  return { ...fresh, ...env };
}

export async function demoCommand(argv: string[]): Promise<number> {
  const { values } = parseFlags('demo', argv, flagSpec);
  if (values.help) {
    process.stdout.write(`${demoHelp}\n`);
    return 0;
  }
  // Every flag is checked before the output folder is touched.
  const webOptions = {
    seed: intFlag('demo', 'seed', values.seed, 0) ?? 1,
    hosts: intFlag('demo', 'hosts', values.hosts, FULL_MIN_HOSTS),
    pagesPerHost: intFlag('demo', 'pages-per-host', values['pages-per-host'], FULL_MIN_PAGES),
  };
  const outDir = values.out ?? join('crawl-output', 'demo');
  await prepareOutputFolder('demo', outDir, { fresh: true });
  const web = await startTestWeb(webOptions);
  try {
    const truth = web.groundTruth();
    const quiet = values.quiet === true || values.json === true;
    if (!quiet)
      process.stderr.write(
        `Test web: ${web.hosts.length} hosts on 127.0.0.1 (${web.hosts.map((host) => `${host.name} ${host.origin}`).join(', ')})\n`,
      );
    let report: TruthReport | null = null;
    const summary = await runCrawlSession({
      outDir,
      job: parseCrawlJob({ id: 'demo', seeds: web.seeds, maxDepth: truth.maxDepth }),
      overrides: testWebOverrides,
      quiet,
      stack: values.stack === true,
      env: values.stack ? freshStackNames(process.env) : process.env,
      beforeStop: async (crawl) => {
        const records = new Map<string, LinkRecord>();
        for await (const record of crawl.linkbase.scan()) records.set(record.url, record);
        report = checkAgainstTruth(truth, web.requests, records);
      },
    });
    const finalReport = report as unknown as TruthReport;
    await replaceFile(
      join(outDir, 'crawl-summary.json'),
      `${JSON.stringify({ summary, groundTruth: finalReport }, null, 2)}\n`,
    );
    process.stdout.write(
      values.json
        ? `${JSON.stringify({ summary, groundTruth: finalReport })}\n`
        : `${formatSummary(summary)}\n\n${formatTruthReport(finalReport)}\n`,
    );
    return finalReport.pass ? 0 : 1;
  } finally {
    await web.close();
  }
}
