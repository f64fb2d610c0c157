import type { GroupDescription, TopicPartition } from '../ports/bus.js';

/**
 * Default time without progress after which a worker holding pending messages is stalled. A
 * fetcher may legitimately hold a partition's commits for FETCHER_MAX_QUEUE_WAIT_MS (5 min) plus
 * one fetch, so a shorter threshold would call a patient fetcher stuck.
 */
export const DEFAULT_STALL_AFTER_MS = 10 * 60_000;

/**
 * How long a worker that left its group is still shown (and counted by crawler_worker_gone) after
 * its last commit. A process killed with -9 leaves when KAFKA_SESSION_TIMEOUT_MS (30 s) has passed
 * without a heartbeat, so it shows as gone within a minute of dying and stays so for this long.
 */
export const GONE_SHOWN_MS = 10 * 60_000;

/**
 * - working: messages are pending in its partitions and one of them moved recently
 * - idle: its partitions are read to the end
 * - stalled: messages are pending and none of its partitions moved for longer than the threshold
 * - unassigned: alive in the group but owning no partition (more members than partitions, or a rebalance)
 * - gone: no longer in the group, though it made the last commit of some partition within GONE_SHOWN_MS
 *   (stopped, crashed or killed; its partitions went to the others)
 */
export type WorkerStateName = 'working' | 'idle' | 'stalled' | 'unassigned' | 'gone';

export interface WorkerState {
  groupId: string;
  memberId: string;
  clientId: string;
  host: string;
  /** `hostname/pid`, or the member id when the process did not say. */
  worker: string;
  /** Its partitions; for a gone worker, those whose last commit it made. */
  partitions: TopicPartition[];
  /** Messages not yet committed in its partitions. */
  pending: number;
  /** When one of its partitions last moved; null if none of them ever committed. */
  lastProgressAt: number | null;
  state: WorkerStateName;
}

/**
 * Judges each member of a group from one description, then adds the workers that are gone. `firstSeen`
 * (member id to the time an observer first saw it) stands in for progress of a member whose
 * partitions never committed: only an observer that watched such a member longer than the threshold
 * can call it stalled. Gone needs no memory of earlier looks: every commit names its process
 * (commit metadata `by`), so a recent commit by a process that is not in the group tells that it left.
 */
export function assessWorkers(
  description: GroupDescription,
  now: number,
  stallAfterMs = DEFAULT_STALL_AFTER_MS,
  firstSeen?: ReadonlyMap<string, number>,
): WorkerState[] {
  const progress = new Map(description.partitions.map((entry) => [`${entry.topic}/${entry.partition}`, entry]));
  const members = description.members.map((member): WorkerState => {
    let pending = 0;
    let lastProgressAt: number | null = null;
    for (const tp of member.partitions) {
      const entry = progress.get(`${tp.topic}/${tp.partition}`);
      if (!entry) continue;
      pending += entry.lag;
      if (entry.committedAt !== null && (lastProgressAt === null || entry.committedAt > lastProgressAt))
        lastProgressAt = entry.committedAt;
    }
    const since = lastProgressAt ?? firstSeen?.get(member.memberId) ?? now;
    const state: WorkerStateName =
      member.partitions.length === 0
        ? 'unassigned'
        : pending === 0
          ? 'idle'
          : now - since > stallAfterMs
            ? 'stalled'
            : 'working';
    return {
      groupId: description.groupId,
      memberId: member.memberId,
      clientId: member.clientId,
      host: member.host,
      worker: member.instance ?? member.memberId,
      partitions: member.partitions,
      pending,
      lastProgressAt,
      state,
    };
  });
  return [...members, ...goneWorkers(description, now, new Set(members.map((member) => member.worker)))];
}

/**
 * Processes that made a partition's last commit within GONE_SHOWN_MS and are not in the group.
 * Judged only in a settled group (Stable, or Empty when all left): during a rebalance members are
 * still joining, and one that is merely late would be called gone.
 */
function goneWorkers(description: GroupDescription, now: number, present: ReadonlySet<string>): WorkerState[] {
  if (description.state !== 'Stable' && description.state !== 'Empty') return [];
  const gone = new Map<string, WorkerState>();
  for (const entry of description.partitions) {
    const by = entry.committedBy ?? null;
    if (by === null || present.has(by) || entry.committedAt === null || now - entry.committedAt > GONE_SHOWN_MS)
      continue;
    let worker = gone.get(by);
    if (!worker) {
      worker = {
        groupId: description.groupId,
        memberId: '',
        clientId: '',
        host: '',
        worker: by,
        partitions: [],
        pending: 0,
        lastProgressAt: null,
        state: 'gone',
      };
      gone.set(by, worker);
    }
    worker.partitions.push({ topic: entry.topic, partition: entry.partition });
    worker.pending += entry.lag;
    worker.lastProgressAt = Math.max(worker.lastProgressAt ?? 0, entry.committedAt);
  }
  return [...gone.values()];
}
