import { brokerName, Codec, CrawlerError, errorCode, loadCatalog, Topics, type Bus, ErrorCode } from '@crawler/core';
import {
  matchesDeadLetter,
  readDeadLetters,
  type DeadLetterEntry,
  type DeadLetterFilter,
} from '../ops/dead-letter-log.js';
import { planReplay, replay, type ReplayPlan } from '../ops/dead-letter-replay.js';
import { formatAge, formatTable } from '../ops/format.js';
import { ReplayLedger } from '../ops/replay-ledger.js';
import { openKafka, reach } from '../ops/stack-access.js';
import { durationFlag, intFlag, parseFlags } from '../parse-flags.js';
import { UsageError } from '../usage-error.js';
import { jsonLine, textLines } from '../terminal-text.js';

export const dlqHelp = `Usage: crawler dlq list [options]
       crawler dlq replay [options]

The dead-letter topic crawl.dlq: records a service gave up on (undecodable bytes, another schema,
a record over its topic's size limit, an error that stayed after its retries), each with the
error code, the reason and the original key, headers and bytes. Reads Kafka as the services do
(KAFKA_*, CRAWLER_TOPIC_PREFIX).

list     the dead letters, newest first: when, original topic, partition:offset, key, service,
         code, attempts, whether a replay sent it back already, and the reason
replay   sends each dead letter not replayed yet back to its original topic (same key, headers
         and bytes, plus a crawler-replay-of header), for a fixed service to process. Safe to run
         again: a ledger per original topic and code (consumer groups crawler-dlq-replay.<topic>.<code>
         on crawl.dlq) remembers what was replayed, so a second run sends only what failed since.
         Values cut to fit crawl.dlq (their original is gone) are never replayed. One replay at a time.

  --topic TOPIC         only dead letters of this original topic, e.g. crawl.frontier (repeatable)
  --code CODE           only this error code, e.g. CODEC_WRONG_SCHEMA (repeatable)
  --since DURATION      list: only dead letters this recent (e.g. 1h)
  --limit N             list: at most N (default 50)
  --json                list: one JSON object per dead letter (value as base64)
  --dry-run             replay: say what would be replayed, send nothing
  -h, --help            this help

Exit code 0, 1 when Kafka cannot be reached, 2 for a bad command line.`;

export const flagSpec = {
  topic: { type: 'string', multiple: true },
  code: { type: 'string', multiple: true },
  since: { type: 'string' },
  limit: { type: 'string' },
  json: { type: 'boolean' },
  'dry-run': { type: 'boolean' },
} as const;

/** What `crawler dlq` was asked, checked before anything connects. */
export interface DlqRequest {
  action: 'list' | 'replay';
  /** Original topics without the prefix, as the catalog names them. */
  topics?: string[];
  codes?: string[];
  sinceMs?: number;
  limit: number;
  json: boolean;
  dryRun: boolean;
}

export function parseDlqRequest(argv: string[]): DlqRequest | 'help' {
  const { values, positionals } = parseFlags('dlq', argv, flagSpec, true);
  if (values.help) return 'help';
  const action = positionals[0];
  if (positionals.length !== 1 || (action !== 'list' && action !== 'replay'))
    throw new UsageError('crawler dlq: say list or replay (see crawler dlq --help)');
  const consumed = loadCatalog()
    .topics.filter((spec) => spec.name !== Topics.dlq)
    .map((spec) => spec.name);
  for (const topic of values.topic ?? []) {
    if (!consumed.includes(topic))
      throw new UsageError(`crawler dlq: --topic ${topic} is not a crawl topic (${consumed.join(', ')})`);
  }
  if (action === 'replay' && (values.since !== undefined || values.limit !== undefined || values.json)) {
    // The ledger only moves past every dead letter of a topic and code; a time window would leave holes.
    throw new UsageError(
      'crawler dlq replay: --since, --limit and --json are for list; replay takes every dead letter not replayed yet (narrow it with --topic and --code)',
    );
  }
  if (action === 'list' && values['dry-run']) throw new UsageError('crawler dlq list: --dry-run is for replay');
  return {
    action,
    topics: values.topic,
    codes: values.code,
    sinceMs: durationFlag('dlq', 'since', values.since),
    limit: intFlag('dlq', 'limit', values.limit, 1) ?? 50,
    json: values.json ?? false,
    dryRun: values['dry-run'] ?? false,
  };
}

export async function dlqCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const request = parseDlqRequest(argv);
  if (request === 'help') {
    process.stdout.write(`${dlqHelp}\n`);
    return 0;
  }
  const access = openKafka('dlq', env);
  try {
    // Only the first answer is bounded: reading a long dead-letter topic may well take longer.
    await reach(access.where, () => access.bus.lag('crawler-dlq-probe', [Topics.dlq])).catch((error: unknown) => {
      if (errorCode(error) !== ErrorCode.BUS_UNKNOWN_TOPIC) throw error;
      throw new CrawlerError(
        ErrorCode.BUS_UNKNOWN_TOPIC,
        `${access.where} has no topic ${brokerName(access.bus, Topics.dlq)}: no crawl with this CRAWLER_TOPIC_PREFIX ran there`,
        { cause: error },
      );
    });
    process.stdout.write(await runDlq(access.bus, request));
    return 0;
  } finally {
    await access.bus.close();
  }
}

/** Lists or replays on any bus; returns what to print. */
export async function runDlq(bus: Bus, request: DlqRequest, now = Date.now()): Promise<string> {
  const log = await readDeadLetters(bus, new Codec());
  const filter: DeadLetterFilter = {
    topics: request.topics,
    codes: request.codes,
    since: request.sinceMs === undefined ? undefined : now - request.sinceMs,
  };
  const matching = log.entries.filter((entry) => matchesDeadLetter(entry, filter));
  const ledger = new ReplayLedger(bus);
  await ledger.load(matching);
  const unreadable =
    log.unreadable.length > 0
      ? `${log.unreadable.length} record(s) of ${brokerName(bus, Topics.dlq)} are not dead letters (first: ${log.unreadable[0]!.partition}:${log.unreadable[0]!.offset} ${log.unreadable[0]!.reason})\n`
      : '';
  if (request.action === 'list') {
    const newest = [...matching].sort((a, b) => b.letter.failedAt - a.letter.failedAt);
    const shown = newest.slice(0, request.limit);
    if (request.json)
      return shown.map((entry) => jsonLine(deadLetterJson(entry, ledger.replayed(entry)))).join('') + unreadable;
    return formatList(shown, newest.length, (entry) => ledger.replayed(entry), now) + unreadable;
  }
  const plan = planReplay(matching, ledger);
  if (request.dryRun) return formatReplay(plan, null, now) + unreadable;
  return formatReplay(plan, await replay(bus, plan, ledger), now) + unreadable;
}

function deadLetterJson({ partition, offset, letter }: DeadLetterEntry, replayed: boolean) {
  return {
    dlq: { partition, offset },
    topic: letter.topic,
    partition: letter.partition,
    offset: letter.offset,
    key: letter.key?.toString('utf8') ?? null,
    headers: letter.headers,
    service: letter.service,
    consumerGroup: letter.consumerGroup,
    errorCode: letter.errorCode,
    reason: letter.reason,
    attempts: letter.attempts,
    failedAt: new Date(letter.failedAt).toISOString(),
    replayed,
    valueBytes: letter.value.length,
    valueTruncatedFrom: letter.valueTruncatedFrom,
    value: letter.value.toString('base64'),
  };
}

/** Characters of the reason shown in a table row; --json has all of it. */
const REASON_CHARS = 90;

function rows(
  entries: DeadLetterEntry[],
  replayed: (entry: DeadLetterEntry) => boolean | null,
  now: number,
): (string | number)[][] {
  return entries.map((entry) => {
    const { letter } = entry;
    const state = replayed(entry);
    const reason = letter.reason.length > REASON_CHARS ? `${letter.reason.slice(0, REASON_CHARS - 1)}…` : letter.reason;
    return [
      formatAge(letter.failedAt, now),
      letter.topic,
      `${letter.partition}:${letter.offset}`,
      letter.key?.toString('utf8') ?? '-',
      letter.service,
      letter.errorCode,
      letter.attempts,
      ...(state === null ? [] : [state ? 'yes' : 'no']),
      reason,
    ];
  });
}

function formatList(
  entries: DeadLetterEntry[],
  total: number,
  replayed: (entry: DeadLetterEntry) => boolean,
  now: number,
): string {
  if (total === 0) return 'no dead letters\n';
  const table = formatTable(
    ['failed', 'topic', 'at', 'key', 'service', 'code', 'attempts', 'replayed', 'reason'],
    rows(entries, replayed, now),
  );
  const more = total > entries.length ? `\n${total - entries.length} more (--limit)` : '';
  return `${table}${more}\n${total} dead letter${total === 1 ? '' : 's'}\n`;
}

function formatReplay(plan: ReplayPlan, sent: Map<string, number> | null, now: number): string {
  const lines: string[] = [];
  const count = plan.toReplay.length;
  if (count > 0 && sent === null)
    lines.push(
      ...formatTable(
        ['failed', 'topic', 'at', 'key', 'service', 'code', 'attempts', 'reason'],
        rows(plan.toReplay, () => null, now),
      ).split('\n'),
    );
  const perTopic = [...(sent ?? countByTopic(plan.toReplay))]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([topic, n]) => `${topic} ${n}`)
    .join(', ');
  lines.push(
    `${sent === null ? 'would replay' : 'replayed'} ${count} dead letter${count === 1 ? '' : 's'}${count > 0 ? ` (${perTopic})` : ''}`,
  );
  if (plan.alreadyReplayed.length > 0) lines.push(`${plan.alreadyReplayed.length} replayed before: skipped`);
  if (plan.cut.length > 0)
    lines.push(`${plan.cut.length} not replayable: value cut to fit ${Topics.dlq} (see crawler dlq list --json)`);
  return textLines(lines);
}

function countByTopic(entries: DeadLetterEntry[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { letter } of entries) counts.set(letter.topic, (counts.get(letter.topic) ?? 0) + 1);
  return counts;
}
