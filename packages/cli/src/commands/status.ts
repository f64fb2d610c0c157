import { createLinkBase } from '@crawler/adapters';
import { brokerName, redactUrl, silentLogger, type LinkBase } from '@crawler/core';
import { loadElasticsearchConfig } from '@crawler/elasticsearch';
import { RecentRecords } from '@crawler/kafka';
import { CrawlStatus, type StatusSnapshot } from '../ops/crawl-status.js';
import { embeddedLinkBaseDir, openEmbeddedLinkBase } from '../ops/embedded-crawl.js';
import { formatEmbeddedStatus, readEmbeddedStatus } from '../ops/embedded-status.js';
import { openKafka, reach, type KafkaAccess } from '../ops/stack-access.js';
import { formatStatus } from '../ops/status-screen.js';
import { durationFlag, parseFlags } from '../parse-flags.js';
import { jsonLine } from '../terminal-text.js';
import { UsageError } from '../usage-error.js';

export const statusHelp = `Usage: crawler status [options]

The crawl on one screen: URLs known, due and leased (link base); pages per second and error
classes of the last minute (topics); lag per consumer group; and every worker (fetcher, extractor,
dedup, scheduler consumer) with the partitions it owns, messages pending, when it last made
progress, and whether it is stalled. Redrawn on a terminal; plain blocks in a pipe. Reads the
stack as the services do (CRAWLER_*, KAFKA_*, ELASTICSEARCH_*).

With --out DIR, an embedded crawl (crawler run --out DIR, running or finished) instead: its link
base read-only, pages stored, the last run's summary and crawl.log's warnings; one snapshot.

  --out DIR             the output folder of an embedded crawl
  --once                one snapshot, then exit
  --json                JSON (one object per snapshot, one per line)
  --interval DURATION   time between snapshots (default 2s)
  --stall-after DURATION  a worker with pending messages and no progress for this long is stalled (default 10m)
  --job ID              one job: its URLs in the link base, its answers and errors (pages/s, lag and
                        workers stay those of all jobs: the topics are shared)
  -h, --help            this help

Exit code 0, or 1 when Kafka or the link base cannot be reached.`;

export const flagSpec = {
  out: { type: 'string' },
  once: { type: 'boolean' },
  json: { type: 'boolean' },
  interval: { type: 'string' },
  'stall-after': { type: 'string' },
  job: { type: 'string' },
} as const;

export async function statusCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values } = parseFlags('status', argv, flagSpec);
  if (values.help) {
    process.stdout.write(`${statusHelp}\n`);
    return 0;
  }
  if (values.out !== undefined && values.job !== undefined)
    throw new UsageError('crawler status: --job is for a crawl on the stack, not with --out');
  if (values.out !== undefined) return embeddedStatus(values.out, values.json === true);
  const intervalMs = durationFlag('status', 'interval', values.interval) ?? 2_000;
  const stallAfterMs = durationFlag('status', 'stall-after', values['stall-after']);
  const access = openKafka('status', env);
  const recent = new RecentRecords(access.kafka, silentLogger());
  let linkbase: LinkBase | null = null;
  let status: CrawlStatus | null = null;
  const stopped = new AbortController();
  const onSignal = () => stopped.abort();
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  try {
    linkbase = await reach(linkbaseWhere(access, env), () => createLinkBase(access.runtime, silentLogger(), { env }));
    status = new CrawlStatus({
      bus: access.bus,
      linkbase,
      recent,
      stallAfterMs,
      ...(values.job === undefined ? {} : { job: values.job }),
    });
    await reach(access.where, () => status!.start());
    const terminal = process.stdout.isTTY === true && !values.json;
    const job = values.job === undefined ? '' : ` · job ${values.job}`;
    const header = `crawl status · topics "${brokerName(access.bus, 'crawl.*')}"${job}`;
    for (let first = true; !stopped.signal.aborted; first = false) {
      const snapshot = first
        ? await reach(access.where, () => status!.snapshot())
        : await status.snapshot().catch((error: unknown) => error as Error);
      process.stdout.write(
        render(snapshot, { json: values.json === true, terminal, header, intervalMs, once: values.once === true }),
      );
      if (values.once) break;
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, intervalMs);
        stopped.signal.addEventListener('abort', () => resolve(clearTimeout(timer)), { once: true });
      });
    }
    return 0;
  } finally {
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
    await status?.stop().catch(() => undefined);
    await linkbase?.close().catch(() => undefined);
    await recent.close().catch(() => undefined);
    await access.bus.close();
  }
}

/** An embedded crawl has no topics or workers to show: what its output folder holds. */
async function embeddedStatus(out: string, json: boolean): Promise<number> {
  const where = `the link base under ${embeddedLinkBaseDir('status', out)}`;
  const linkbase = await reach(where, () => openEmbeddedLinkBase(out, { readOnly: true }));
  try {
    const now = Date.now();
    const status = readEmbeddedStatus(out, await linkbase.stats(now, { due: true }), now);
    process.stdout.write(json ? jsonLine(status) : formatEmbeddedStatus(status));
    return 0;
  } finally {
    await linkbase.close();
  }
}

/** A snapshot, or the error of a failed refresh (live mode keeps going and says so). */
function render(
  snapshot: StatusSnapshot | Error,
  options: { json: boolean; terminal: boolean; header: string; intervalMs: number; once: boolean },
): string {
  if (snapshot instanceof Error) {
    return options.json
      ? `${JSON.stringify({ at: new Date().toISOString(), error: snapshot.message })}\n`
      : `refresh failed at ${new Date().toISOString()}: ${snapshot.message}\n`;
  }
  if (options.json) return `${JSON.stringify(snapshot)}\n`;
  const when = new Date(snapshot.at).toISOString().replace('T', ' ').slice(0, 19);
  const live = options.once ? '' : ` · every ${options.intervalMs / 1000}s, Ctrl-C to quit`;
  const text = formatStatus(snapshot, `${options.header} · ${when}${live}`);
  // On a terminal the screen is redrawn in place; in a pipe each snapshot is a block of its own.
  return options.terminal && !options.once ? `\x1b[H\x1b[2J${text}` : `${text}\n`;
}

function linkbaseWhere(access: KafkaAccess, env: NodeJS.ProcessEnv): string {
  if (access.runtime.linkbase === 'file')
    return `the link base folder under ${access.runtime.dataDir} (CRAWLER_DATA_DIR)`;
  return `Elasticsearch at ${redactUrl(loadElasticsearchConfig({ env }).url)} (ELASTICSEARCH_URL)`;
}
