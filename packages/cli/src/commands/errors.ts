import { createLinkBase } from '@crawler/adapters';
import {
  fetchNow,
  loadRuntimeConfig,
  silentLogger,
  withNextFetch,
  type LinkBase,
  type LinkRecord,
  type LinkStatus,
} from '@crawler/core';
import { formatAge, formatTable } from '../ops/format.js';
import { embeddedLinkBaseDir, openEmbeddedLinkBase } from '../ops/embedded-crawl.js';
import { reach } from '../ops/stack-access.js';
import { durationFlag, intFlag, parseFlags } from '../parse-flags.js';
import { jsonLine } from '../terminal-text.js';

export const errorsHelp = `Usage: crawler errors [options]

Failed URLs from the link base, newest first, with their cause: status (retry: failing, will be
tried again; error: attempts spent until the next re-crawl; gone; blocked), outcome class, HTTP
status, error code and consecutive failures. --requeue makes them due again now. Reads the link
base of an embedded crawl (--out, as given to crawler run; read-only, so a running crawl may be
looked at), or else the one the services use (CRAWLER_LINKBASE, ELASTICSEARCH_*). It scans every
record.

  --out DIR             the output folder of an embedded crawl
  --host HOST           only URLs of this host
  --class CLASS         only this outcome class (timeout, server_error, gone...) or status (retry, error, gone, blocked)
  --since DURATION      only URLs whose last attempt is this recent (e.g. 1h)
  --limit N             list at most N (default 50)
  --requeue             make every matching URL due again now (all matches, not only those listed);
                        with --out, only while that crawl is stopped: its next run hands them out
  --json                one JSON object per URL
  -h, --help            this help

Exit code 0, or 1 when the link base cannot be reached.`;

export const flagSpec = {
  out: { type: 'string' },
  host: { type: 'string' },
  class: { type: 'string' },
  since: { type: 'string' },
  limit: { type: 'string' },
  requeue: { type: 'boolean' },
  json: { type: 'boolean' },
} as const;

const FAILED: ReadonlySet<LinkStatus> = new Set(['retry', 'error', 'gone', 'blocked']);
/** Records per update call when requeueing. */
const REQUEUE_BATCH = 500;

export interface ErrorFilter {
  host?: string;
  outcomeClass?: string;
  since?: number;
}

/** A failed record matching the filter; what it failed with is its last outcome. */
export function isListedFailure(record: LinkRecord, filter: ErrorFilter): boolean {
  if (!FAILED.has(record.status)) return false;
  if (filter.host !== undefined && record.host !== filter.host) return false;
  if (
    filter.outcomeClass !== undefined &&
    record.lastOutcome !== filter.outcomeClass &&
    record.status !== filter.outcomeClass
  )
    return false;
  return filter.since === undefined || (record.lastFetchAt ?? 0) >= filter.since;
}

export async function errorsCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values } = parseFlags('errors', argv, flagSpec);
  if (values.help) {
    process.stdout.write(`${errorsHelp}\n`);
    return 0;
  }
  const limit = intFlag('errors', 'limit', values.limit, 1) ?? 50;
  const sinceMs = durationFlag('errors', 'since', values.since);
  const now = Date.now();
  const filter: ErrorFilter = {
    host: values.host,
    outcomeClass: values.class,
    since: sinceMs === undefined ? undefined : now - sinceMs,
  };
  const { linkbase, where } = await openLinkBase(values.out, values.requeue === true, env);
  try {
    const failed = await reach(where, () => collect(linkbase, filter));
    failed.sort((a, b) => (b.lastFetchAt ?? 0) - (a.lastFetchAt ?? 0));
    const shown = failed.slice(0, limit);
    if (values.json) {
      for (const record of shown) process.stdout.write(jsonLine(errorJson(record)));
    } else {
      process.stdout.write(formatErrors(shown, failed.length, now));
    }
    if (values.requeue) {
      const requeued = await requeue(linkbase, failed, filter, Date.now());
      process.stderr.write(
        `requeued ${requeued} URL${requeued === 1 ? '' : 's'}: due now, the scheduler hands them out in its next rounds\n`,
      );
    }
    return 0;
  } finally {
    await linkbase.flush().catch(() => undefined);
    await linkbase.close();
  }
}

/** An embedded crawl's link base (read-only unless requeueing), or the services' one. */
async function openLinkBase(
  out: string | undefined,
  write: boolean,
  env: NodeJS.ProcessEnv,
): Promise<{ linkbase: LinkBase; where: string }> {
  if (out !== undefined) {
    const where = `the link base under ${embeddedLinkBaseDir('errors', out)}`;
    const linkbase = await reach(where, () => openEmbeddedLinkBase(out, { readOnly: !write }));
    return { linkbase, where };
  }
  const runtime = loadRuntimeConfig({ env });
  const where =
    runtime.linkbase === 'file'
      ? `the link base under ${runtime.dataDir} (CRAWLER_DATA_DIR)`
      : `the link base in Elasticsearch (ELASTICSEARCH_URL, ELASTICSEARCH_INDEX)`;
  return { linkbase: await reach(where, () => createLinkBase(runtime, silentLogger(), { env })), where };
}

async function collect(linkbase: LinkBase, filter: ErrorFilter): Promise<LinkRecord[]> {
  const out: LinkRecord[] = [];
  for await (const record of linkbase.scan()) if (isListedFailure(record, filter)) out.push(record);
  return out;
}

/**
 * Due now with a fresh attempt budget. The record is checked again inside the update, so a URL
 * that succeeded meanwhile is left alone.
 */
async function requeue(linkbase: LinkBase, records: LinkRecord[], filter: ErrorFilter, now: number): Promise<number> {
  let count = 0;
  for (let i = 0; i < records.length; i += REQUEUE_BATCH) {
    const ids = records.slice(i, i + REQUEUE_BATCH).map((record) => record.id);
    const updated = await linkbase.update(ids, (current) =>
      isListedFailure(current, filter)
        ? withNextFetch(
            { ...current, status: 'queued', consecutiveFailures: 0, leaseUntil: 0, leaseExpiries: 0 },
            fetchNow,
            now,
          )
        : null,
    );
    count += updated.length;
  }
  return count;
}

function errorJson(record: LinkRecord) {
  return {
    url: record.url,
    host: record.host,
    status: record.status,
    class: record.lastOutcome,
    httpStatus: record.httpStatus,
    errorCode: record.errorCode,
    failures: record.consecutiveFailures,
    lastFetchAt: isoTime(record.lastFetchAt),
    /** null: never scheduled again (gone, blocked). */
    nextFetchAt: isoTime(record.nextFetchAt),
    redirectTo: record.redirectTo,
  };
}

/** The scheduler's "never" lies past the last representable date. */
function isoTime(ms: number | null): string | null {
  return ms === null || !(Math.abs(ms) <= 8.64e15) ? null : new Date(ms).toISOString();
}

function formatErrors(records: LinkRecord[], total: number, now: number): string {
  if (total === 0) return 'no failed URLs\n';
  const rows = records.map((record) => [
    formatAge(record.lastFetchAt, now),
    record.status,
    record.lastOutcome ?? '-',
    record.httpStatus ?? '-',
    record.errorCode ?? '-',
    record.consecutiveFailures,
    record.url,
  ]);
  const more = total > records.length ? `\n${total - records.length} more (--limit)` : '';
  return `${formatTable(['last attempt', 'status', 'class', 'http', 'code', 'failures', 'url'], rows)}${more}\n${total} failed URL${total === 1 ? '' : 's'}\n`;
}
