import type { GroupDescription, TopicPartition } from '../ports/bus.js';

/**
 * Default time without progress after which a worker holding pending messages is stalled. A
 * fetcher may legitimately hold a partition's commits for FETCHER_MAX_QUEUE_WAIT_MS (5 min) plus
 * one fetch, so a shorter threshold would call a patient fetcher stuck.
 */
export const DEFAULT_STALL_AFTER_MS = 10 * 60_000;

/**
 * - working: messages are pending in its partitions and one of them moved recently
 * - idle: its partitions are read to the end
 * - stalled: messages are pending and none of its partitions moved for longer than the threshold
 * - unassigned: alive in the group but owning no partition (more members than partitions, or a rebalance)
 */
export type WorkerStateName = 'working' | 'idle' | 'stalled' | 'unassigned';

export interface WorkerState {
  groupId: string;
  memberId: string;
  clientId: string;
  host: string;
  /** `hostname/pid`, or the member id when the process did not say. */
  worker: string;
  partitions: TopicPartition[];
  /** Messages not yet committed in its partitions. */
  pending: number;
  /** When one of its partitions last moved; null if none of them ever committed. */
  lastProgressAt: number | null;
  state: WorkerStateName;
}

/**
 * Judges each member of a group from one description. `firstSeen` (member id to the time an
 * observer first saw it) stands in for progress of a member whose partitions never committed:
 * only an observer that watched such a member longer than the threshold can call it stalled.
 */
export function assessWorkers(
  description: GroupDescription,
  now: number,
  stallAfterMs = DEFAULT_STALL_AFTER_MS,
  firstSeen?: ReadonlyMap<string, number>,
): WorkerState[] {
  const progress = new Map(description.partitions.map((entry) => [`${entry.topic}/${entry.partition}`, entry]));
  return description.members.map((member) => {
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
}
