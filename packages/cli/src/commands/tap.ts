import { randomUUID } from 'node:crypto';
import { Codec, loadCatalog, type IncomingMessage, type TopicPartitionOffset } from '@crawler/core';
import { matchesFilters, parseFilters } from '../ops/record-filter.js';
import { toTappedRecord } from '../ops/record-json.js';
import { openKafka, reach } from '../ops/stack-access.js';
import { intFlag, parseFlags } from '../parse-flags.js';
import { UsageError } from '../usage-error.js';
import { jsonLine } from '../terminal-text.js';

export const tapHelp = `Usage: crawler tap <topic> [options]

Prints the records of a topic as JSON lines, decoded with the Avro schemas in schemas/: where each
record sits (topic, partition, offset, timestamp), its key and headers (trace-id among them), its
schema and value. Bytes are base64; bytes and strings longer than --field-limit are cut and listed
under "truncated" with their full length. Undecodable records are printed with the reason.
A crawl topic name (crawl.pages) gets CRAWLER_TOPIC_PREFIX; any other name is used as given.

  --from beginning|latest   where to start when the group has committed nothing (default latest)
  --group NAME              read as this consumer group: resume where it left off and commit what
                            was printed (default: a throwaway group that commits nothing)
  --filter FIELD=VALUE      only records whose field has this value (repeatable; all must match);
                            dotted fields reach into the record; host= also matches url's host
  --max N                   stop after N records
  --field-limit N           bytes and characters kept per field (default 1024)
  -h, --help                this help

Runs until --max records were printed or Ctrl-C. Exit code 0, 1 when Kafka cannot be reached.`;

export const flagSpec = {
  from: { type: 'string' },
  group: { type: 'string' },
  filter: { type: 'string', multiple: true },
  max: { type: 'string' },
  'field-limit': { type: 'string' },
} as const;

/** How often a --group tap commits what it printed. */
const COMMIT_INTERVAL_MS = 1000;

export async function tapCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values, positionals } = parseFlags('tap', argv, flagSpec, true);
  if (values.help) {
    process.stdout.write(`${tapHelp}\n`);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError('crawler tap: give exactly one topic (see crawler tap --help)');
  const from = values.from ?? 'latest';
  if (from !== 'beginning' && from !== 'latest')
    throw new UsageError(`crawler tap: --from must be beginning or latest, got "${from}"`);
  const filters = parseFilters('tap', values.filter ?? []);
  const max = intFlag('tap', 'max', values.max, 1);
  const fieldLimit = intFlag('tap', 'field-limit', values['field-limit'], 0) ?? 1024;

  const access = openKafka('tap', env);
  const name = positionals[0]!;
  // A crawl topic is read by its catalog name on the crawl's bus; any other by its own name.
  const bus = loadCatalog().topics.some((spec) => spec.name === name) ? access.bus : access.cluster;
  const codec = new Codec();
  const consumer = bus.consumer({
    groupId: values.group ?? `crawler-tap-${randomUUID()}`,
    topics: [name],
    fromBeginning: from === 'beginning',
    clientId: 'tap',
  });
  const toCommit = new Map<number, TopicPartitionOffset>();
  let printed = 0;
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const onSignal = () => finish();
  const onOutputError = () => finish(); // the reader went away (| head): stop quietly
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  process.stdout.on('error', onOutputError);
  const commit = async () => {
    if (values.group === undefined || toCommit.size === 0) return;
    const offsets = [...toCommit.values()];
    toCommit.clear();
    await consumer.commit(offsets);
  };
  const timer = setInterval(() => void commit().catch(() => undefined), COMMIT_INTERVAL_MS);

  const onMessage = async (message: IncomingMessage) => {
    if (max !== undefined && printed >= max) return;
    const record = toTappedRecord(message, codec, fieldLimit);
    if (filters.length === 0 || (record.value !== undefined && matchesFilters(record.value, filters))) {
      printed++;
      // Waiting for a slow reader holds the consumer back; a reader that left ends the tap.
      if (!process.stdout.write(jsonLine(record)))
        await Promise.race([new Promise((resolve) => process.stdout.once('drain', resolve)), finished]);
    }
    toCommit.set(message.partition, { topic: message.topic, partition: message.partition, offset: message.offset + 1 });
    if (max !== undefined && printed >= max) finish();
  };
  try {
    await reach(access.where, () => consumer.start({ onMessage }));
    await finished;
    consumer.pause();
    await commit();
    return 0;
  } finally {
    clearInterval(timer);
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
    process.stdout.off('error', onOutputError);
    await consumer.stop().catch(() => undefined);
    await access.bus.close();
  }
}
