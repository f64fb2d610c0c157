import { brokerName, catalogGroups, type Bus } from '@crawler/core';
import { formatAge, formatCount, formatTable } from '../ops/format.js';
import { describeGroups, groupReport, type GroupReport } from '../ops/group-report.js';
import { openKafka, reach, type KafkaAccess } from '../ops/stack-access.js';
import { parseFlags } from '../parse-flags.js';
import { UsageError } from '../usage-error.js';
import { jsonLine } from '../terminal-text.js';

export const lagHelp = `Usage: crawler lag [options]

Consumer lag of the crawl's groups (schemas/catalog.json), per topic and partition: the group's
committed offset, the log-end offset, what is left to read, which process owns the partition and
when its committed offset last moved. Reads Kafka as the services do (KAFKA_*, CRAWLER_TOPIC_PREFIX).

  --group NAME          only this group (repeatable)
  --topic NAME          with --group: the topics of a group that is not the crawl's (a tap's group, say)
  --json                one JSON object on stdout
  -h, --help            this help

Exit code 0, or 1 when Kafka cannot be reached.`;

export const flagSpec = {
  group: { type: 'string', multiple: true },
  topic: { type: 'string', multiple: true },
  json: { type: 'boolean' },
} as const;

export async function lagCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values } = parseFlags('lag', argv, flagSpec);
  if (values.help) {
    process.stdout.write(`${lagHelp}\n`);
    return 0;
  }
  const access = openKafka('lag', env);
  try {
    const chosen = chooseGroups(access, values.group ?? [], values.topic ?? []);
    const descriptions = await reach(access.where, () =>
      Promise.all(chosen.map(({ bus, ...group }) => describeGroups(bus, [group]))),
    );
    const reports = descriptions.flat().map(groupReport);
    const now = Date.now();
    process.stdout.write(values.json ? jsonLine(lagJson(reports, now)) : formatLag(reports, now));
    return 0;
  } finally {
    await access.bus.close();
  }
}

/**
 * The groups to describe: the crawl's on its bus, named on the command line as the broker names
 * them (as they are shown), or any group with the topics given, on the cluster as named.
 */
function chooseGroups(
  access: KafkaAccess,
  names: string[],
  topics: string[],
): { bus: Bus; group: string; topics: string[] }[] {
  const known = catalogGroups().map((entry) => ({ bus: access.bus, ...entry }));
  if (names.length === 0) {
    if (topics.length > 0) throw new UsageError('crawler lag: --topic needs --group');
    return known;
  }
  const shown = (entry: { group: string }) => brokerName(access.bus, entry.group);
  return names.map((name) => {
    if (topics.length > 0) return { bus: access.cluster, group: name, topics };
    const group = known.find((entry) => shown(entry) === name);
    if (!group)
      throw new UsageError(
        `crawler lag: "${name}" is not a group of the crawl (${known.map(shown).join(', ')}); give its topics with --topic`,
      );
    return group;
  });
}

function lagJson(reports: GroupReport[], now: number) {
  return {
    at: new Date(now).toISOString(),
    groups: reports.map(({ group, state, members, lag, partitions }) => ({ group, state, members, lag, partitions })),
  };
}

/** A commit by a client that writes no time in its metadata (an older crawler, another tool) has an unknown time. */
function lastCommit(entry: GroupReport['partitions'][number], now: number): string {
  if (entry.committed < 0) return 'never';
  return entry.committedAt === null ? 'unknown' : formatAge(entry.committedAt, now);
}

function formatLag(reports: GroupReport[], now: number): string {
  return `${reports
    .map((report) => {
      const title = `${report.group}: lag ${formatCount(report.lag)} · ${report.members} member${report.members === 1 ? '' : 's'} · ${report.state}`;
      const rows = report.partitions.map((entry) => [
        entry.topic,
        entry.partition,
        entry.committed,
        entry.end,
        entry.lag,
        entry.owner ?? '-',
        lastCommit(entry, now),
      ]);
      return `${title}\n${formatTable(['topic', 'partition', 'committed', 'end', 'lag', 'owner', 'last commit'], rows, '  ')}`;
    })
    .join('\n\n')}\n`;
}
