import { Counter, Gauge, type Registry } from 'prom-client';
import { loadCatalog } from '../catalog.js';
import { errorCode, errorMessage } from '../errors.js';
import type { Logger } from '../log/logger.js';
import type { Bus, GroupDescription } from '../ports/bus.js';
import { brokerName } from '../ports/prefixed-bus.js';
import { cachedRead } from './cached-read.js';
import { assessWorkers, DEFAULT_STALL_AFTER_MS, GONE_SHOWN_MS, type WorkerState } from './worker-presence.js';

/** Every consumer group of the catalog with the topics it reads. */
export function catalogGroups(): { group: string; topics: string[] }[] {
  return loadCatalog().consumerGroups.map(({ group, topics }) => ({ group, topics: [...topics] }));
}

/**
 * One consumer group as the broker describes it, its group and topics named as on the broker:
 * metric labels and operators' commands show what Kafka's own tools show, and two crawls sharing
 * a cluster and a Prometheus stay apart. A bus that cannot describe groups gives the lag alone.
 */
export async function describeGroup(bus: Bus, group: string, topics: string[]): Promise<GroupDescription> {
  const named = <T extends { topic: string }>(entries: T[]) =>
    entries.map((entry) => ({ ...entry, topic: brokerName(bus, entry.topic) }));
  const description: GroupDescription = bus.describeGroup
    ? await bus.describeGroup(group, topics)
    : {
        groupId: group,
        state: 'unknown',
        members: [],
        partitions: (await bus.lag(group, topics)).map((entry) => ({ ...entry, committedAt: null })),
      };
  return {
    ...description,
    groupId: brokerName(bus, description.groupId),
    members: description.members.map((member) => ({ ...member, partitions: named(member.partitions) })),
    partitions: named(description.partitions),
  };
}

export interface GroupMetricsOptions {
  bus: Bus;
  /** The consumer groups to watch with their topics; default: every group of the catalog. */
  groups?: { group: string; topics: string[] }[];
  logger: Logger;
  stallAfterMs?: number;
  now?: () => number;
}

interface GroupsView {
  descriptions: GroupDescription[];
  workers: WorkerState[];
}

/**
 * Consumer lag and worker presence of every group of the crawl, read from the bus at scrape
 * time. Every service exports all groups, not only its own: the lag of a group whose workers all
 * died is exactly what must stay visible. Identical series from several processes are folded
 * with max by (group, topic, partition) in queries.
 */
export function registerGroupMetrics(registry: Registry, options: GroupMetricsOptions): void {
  const now = options.now ?? Date.now;
  const stallAfterMs = options.stallAfterMs ?? DEFAULT_STALL_AFTER_MS;
  const log = options.logger.child({ component: 'group-metrics' });
  // Its collect waits for this scrape's read, so a failure shows in the same scrape.
  const errors = new Counter({
    name: 'crawler_group_read_errors_total',
    help: 'Failed reads of consumer group state for metrics, by error code.',
    labelNames: ['code'],
    registers: [registry],
    async collect() {
      await view();
    },
  });
  const firstSeen = new Map<string, number>();
  const groups = options.groups ?? catalogGroups();
  const failed = (group: string, error: unknown) => {
    errors.inc({ code: errorCode(error) });
    log.warn({ group, err: errorMessage(error) }, 'cannot read consumer group state for metrics');
  };
  const view = cachedRead<GroupsView>(
    async () => {
      const settled = await Promise.allSettled(
        groups.map(({ group, topics }) => describeGroup(options.bus, group, topics)),
      );
      const descriptions: GroupDescription[] = [];
      settled.forEach((result, index) => {
        if (result.status === 'fulfilled') descriptions.push(result.value);
        else failed(groups[index]!.group, result.reason);
      });
      const at = now();
      const members = new Set(
        descriptions.flatMap((description) => description.members.map((member) => member.memberId)),
      );
      for (const id of firstSeen.keys()) if (!members.has(id)) firstSeen.delete(id);
      for (const id of members) if (!firstSeen.has(id)) firstSeen.set(id, at);
      return {
        descriptions,
        workers: descriptions.flatMap((description) => assessWorkers(description, at, stallAfterMs, firstSeen)),
      };
    },
    {
      maxAgeMs: 5_000,
      timeoutMs: 8_000,
      now,
      fallback: (error) => {
        failed('*', error);
        return { descriptions: [], workers: [] };
      },
    },
  );

  const perPartition = (
    name: string,
    help: string,
    value: (entry: GroupDescription['partitions'][number]) => number | null,
  ) =>
    new Gauge({
      name,
      help,
      labelNames: ['group', 'topic', 'partition'],
      registers: [registry],
      async collect() {
        const { descriptions } = await view();
        this.reset();
        for (const description of descriptions) {
          for (const entry of description.partitions) {
            const sample = value(entry);
            if (sample !== null)
              this.set({ group: description.groupId, topic: entry.topic, partition: String(entry.partition) }, sample);
          }
        }
      },
    });
  perPartition(
    'crawler_consumer_lag',
    'Messages of a partition not yet committed by the group (log-end offset minus committed offset).',
    (entry) => entry.lag,
  );
  perPartition(
    'crawler_consumer_committed_offset',
    'Next offset the group will read (-1: never committed).',
    (entry) => entry.committed,
  );
  perPartition(
    'crawler_consumer_log_end_offset',
    'Offset the next message produced to the partition will get.',
    (entry) => entry.end,
  );
  perPartition(
    'crawler_consumer_last_commit_timestamp_seconds',
    "When the group's committed offset of the partition last moved (Unix time).",
    (entry) => (entry.committedAt === null ? null : entry.committedAt / 1000),
  );

  new Gauge({
    name: 'crawler_group_members',
    help: 'Live members of each consumer group.',
    labelNames: ['group'],
    registers: [registry],
    async collect() {
      const { descriptions } = await view();
      this.reset();
      for (const description of descriptions) this.set({ group: description.groupId }, description.members.length);
    },
  });
  const perWorker = (name: string, help: string, value: (worker: WorkerState) => number | null) =>
    new Gauge({
      name,
      help,
      labelNames: ['group', 'worker', 'member'],
      registers: [registry],
      async collect() {
        const { workers } = await view();
        this.reset();
        for (const worker of workers) {
          if (worker.state === 'gone') continue;
          const sample = value(worker);
          if (sample !== null)
            this.set({ group: worker.groupId, worker: worker.worker, member: worker.memberId }, sample);
        }
      },
    });
  perWorker(
    'crawler_worker_partitions',
    'Partitions a worker (one group member: hostname/pid) owns.',
    (worker) => worker.partitions.length,
  );
  perWorker(
    'crawler_worker_pending_messages',
    'Messages not yet committed in the partitions a worker owns.',
    (worker) => worker.pending,
  );
  perWorker(
    'crawler_worker_last_progress_timestamp_seconds',
    "When one of a worker's partitions last moved (Unix time).",
    (worker) => (worker.lastProgressAt === null ? null : worker.lastProgressAt / 1000),
  );
  new Gauge({
    name: 'crawler_worker_gone',
    help: `1 for a worker (hostname/pid) that left its group (stopped, crashed or killed) and made one of its partitions' last commits in the last ${GONE_SHOWN_MS / 60_000} minutes.`,
    labelNames: ['group', 'worker'],
    registers: [registry],
    async collect() {
      const { workers } = await view();
      this.reset();
      for (const worker of workers)
        if (worker.state === 'gone') this.set({ group: worker.groupId, worker: worker.worker }, 1);
    },
  });
  perWorker(
    'crawler_worker_stalled',
    `1 when a worker owns pending messages and none of its partitions moved for ${stallAfterMs / 60_000} minutes.`,
    (worker) => (worker.state === 'stalled' ? 1 : 0),
  );
}
