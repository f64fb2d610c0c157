import { SCHEDULABLE_STATUSES, type LinkRecord } from '@crawler/core';
import { BinaryHeap } from './binary-heap.js';

const SCHEDULABLE = new Set(SCHEDULABLE_STATUSES);

export function isSchedulable(record: LinkRecord): boolean {
  return SCHEDULABLE.has(record.status);
}

interface Entry {
  record: LinkRecord;
  stamp: number;
}

/** Order of new URLs: shallow first (breadth-first), then the random rank, then the id for stable ties. */
function breadthFirst(a: Entry, b: Entry): boolean {
  if (a.record.depth !== b.record.depth) return a.record.depth < b.record.depth;
  if (a.record.rank !== b.record.rank) return a.record.rank < b.record.rank;
  return a.record.id < b.record.id;
}

/** Order of re-crawls: most overdue first, then the random rank, then the id. */
function dueOrder(a: Entry, b: Entry): boolean {
  if (a.record.nextFetchAt !== b.record.nextFetchAt) return a.record.nextFetchAt < b.record.nextFetchAt;
  if (a.record.rank !== b.record.rank) return a.record.rank < b.record.rank;
  return a.record.id < b.record.id;
}

interface Group {
  jobId: string;
  heap: BinaryHeap<Entry>;
}

/**
 * One politeness queue: records waiting for their time, and records ready now per group (traffic
 * class and level). Groups are per job as well, so a paused job is skipped without touching its records.
 */
class QueueIndex {
  constructor(readonly partition: number) {}

  readonly future = new BinaryHeap<Entry>((a, b) => a.record.nextFetchAt < b.record.nextFetchAt);
  readonly groups = new Map<string, Group>();

  ready(entry: Entry): void {
    const { jobId, trafficClass, level } = entry.record;
    const key = `${jobId}\n${trafficClass}\n${level}`;
    let group = this.groups.get(key);
    if (!group)
      this.groups.set(
        key,
        (group = { jobId, heap: new BinaryHeap<Entry>(trafficClass === 'discovery' ? breadthFirst : dueOrder) }),
      );
    group.heap.push(entry);
  }

  get empty(): boolean {
    if (this.future.size > 0) return false;
    for (const group of this.groups.values()) if (group.heap.size > 0) return false;
    return true;
  }
}

export interface DueSelection {
  now: number;
  limit: number;
  perGroupLimit: number;
  excludeQueues?: ReadonlySet<string>;
  excludeJobs?: ReadonlySet<string>;
  /** Only queues of these partitions; all when absent. */
  partitions?: ReadonlySet<number>;
}

/**
 * The in-memory index behind findDue: per-queue heaps with lazy deletion. A record's `stamp` changes
 * whenever it changes, so heap entries of an older state are skipped when they surface.
 */
export class DueIndex {
  private readonly queues = new Map<string, QueueIndex>();
  private readonly stamps = new Map<string, number>();
  private readonly leases = new BinaryHeap<Entry>((a, b) => a.record.leaseUntil < b.record.leaseUntil);
  private nextStamp = 1;
  private rotation = 0;

  /** Indexes the record's current state (call after every change). */
  track(record: LinkRecord): void {
    const stamp = this.nextStamp++;
    this.stamps.set(record.id, stamp);
    if (!isSchedulable(record)) return;
    if (record.leaseUntil > 0) {
      this.leases.push({ record, stamp });
      return;
    }
    this.queue(record).future.push({ record, stamp });
  }

  /** Up to perGroupLimit due records per group of each queue, queues visited in rotating order for fairness. */
  due(selection: DueSelection, current: (id: string) => LinkRecord | undefined): LinkRecord[] {
    const { now, limit, perGroupLimit } = selection;
    this.expireLeases(now, current);
    const out: LinkRecord[] = [];
    const keys = [...this.queues.keys()];
    if (keys.length === 0) return out;
    const start = this.rotation++ % keys.length;
    for (let i = 0; i < keys.length && out.length < limit; i++) {
      const key = keys[(start + i) % keys.length]!;
      const queue = this.queues.get(key)!;
      this.promote(queue, now);
      const owned = !selection.partitions || selection.partitions.has(queue.partition);
      if (owned && !selection.excludeQueues?.has(key)) {
        for (const group of queue.groups.values()) {
          if (out.length >= limit) break;
          if (!selection.excludeJobs?.has(group.jobId))
            this.take(group.heap, Math.min(perGroupLimit, limit - out.length), out);
        }
      }
      if (queue.empty) this.queues.delete(key);
    }
    return out;
  }

  /** Copies the first `count` live records of the heap into `out` (stale entries are dropped on the way). */
  private take(heap: BinaryHeap<Entry>, count: number, out: LinkRecord[]): void {
    const taken: Entry[] = [];
    while (taken.length < count) {
      const entry = heap.pop();
      if (!entry) break;
      if (!this.isLive(entry)) continue;
      taken.push(entry);
      out.push(entry.record);
    }
    for (const entry of taken) heap.push(entry);
  }

  private queue(record: LinkRecord): QueueIndex {
    let queue = this.queues.get(record.queueKey);
    if (!queue) this.queues.set(record.queueKey, (queue = new QueueIndex(record.partition)));
    return queue;
  }

  private promote(queue: QueueIndex, now: number): void {
    for (let top = queue.future.peek(); top && top.record.nextFetchAt <= now; top = queue.future.peek()) {
      const entry = queue.future.pop()!;
      if (this.isLive(entry)) queue.ready(entry);
    }
  }

  /** A lease that ran out makes its record due again, if nothing changed it meanwhile. */
  private expireLeases(now: number, current: (id: string) => LinkRecord | undefined): void {
    for (let top = this.leases.peek(); top && top.record.leaseUntil <= now; top = this.leases.peek()) {
      const entry = this.leases.pop()!;
      if (!this.isLive(entry)) continue;
      const record = current(entry.record.id);
      if (!record) continue;
      this.queue(record).future.push({ record, stamp: entry.stamp });
    }
  }

  private isLive(entry: Entry): boolean {
    return this.stamps.get(entry.record.id) === entry.stamp;
  }
}
