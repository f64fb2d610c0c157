import type { LinkRecord } from '@crawler/core';
import { BinaryHeap } from './binary-heap.js';

const SCHEDULABLE = new Set(['queued', 'retry', 'fetched', 'error']);

export function isSchedulable(record: LinkRecord): boolean {
  return SCHEDULABLE.has(record.status);
}

interface Entry {
  record: LinkRecord;
  stamp: number;
}

/** Crawl order within a queue: priority high first, then shallow first (breadth-first), then oldest due. */
function crawlOrder(a: Entry, b: Entry): boolean {
  if (a.record.priority !== b.record.priority) return a.record.priority > b.record.priority;
  if (a.record.depth !== b.record.depth) return a.record.depth < b.record.depth;
  return a.record.nextFetchAt < b.record.nextFetchAt;
}

/** One politeness queue: records waiting for their time, and records ready now in crawl order. */
class QueueIndex {
  readonly future = new BinaryHeap<Entry>((a, b) => a.record.nextFetchAt < b.record.nextFetchAt);
  readonly ready = new BinaryHeap<Entry>(crawlOrder);
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
    let queue = this.queues.get(record.queueKey);
    if (!queue) this.queues.set(record.queueKey, (queue = new QueueIndex()));
    queue.future.push({ record, stamp });
  }

  /** Up to perQueueLimit due records per queue, queues visited in rotating order for fairness. */
  due(now: number, limit: number, perQueueLimit: number, current: (id: string) => LinkRecord | undefined): LinkRecord[] {
    this.expireLeases(now, current);
    const out: LinkRecord[] = [];
    const keys = [...this.queues.keys()];
    if (keys.length === 0) return out;
    const start = this.rotation++ % keys.length;
    for (let i = 0; i < keys.length && out.length < limit; i++) {
      const key = keys[(start + i) % keys.length]!;
      const queue = this.queues.get(key)!;
      this.promote(queue, now);
      const taken: Entry[] = [];
      while (taken.length < perQueueLimit && out.length < limit) {
        const entry = queue.ready.pop();
        if (!entry) break;
        if (!this.isLive(entry)) continue;
        taken.push(entry);
        out.push(entry.record);
      }
      for (const entry of taken) queue.ready.push(entry);
      if (queue.future.size === 0 && queue.ready.size === 0) this.queues.delete(key);
    }
    return out;
  }

  forget(id: string): void {
    this.stamps.delete(id);
  }

  private promote(queue: QueueIndex, now: number): void {
    for (let top = queue.future.peek(); top && top.record.nextFetchAt <= now; top = queue.future.peek()) {
      const entry = queue.future.pop()!;
      if (this.isLive(entry)) queue.ready.push(entry);
    }
  }

  /** A lease that ran out makes its record due again, if nothing changed it meanwhile. */
  private expireLeases(now: number, current: (id: string) => LinkRecord | undefined): void {
    for (let top = this.leases.peek(); top && top.record.leaseUntil <= now; top = this.leases.peek()) {
      const entry = this.leases.pop()!;
      if (!this.isLive(entry)) continue;
      const record = current(entry.record.id);
      if (!record) continue;
      let queue = this.queues.get(record.queueKey);
      if (!queue) this.queues.set(record.queueKey, (queue = new QueueIndex()));
      queue.future.push({ record, stamp: entry.stamp });
    }
  }

  private isLive(entry: Entry): boolean {
    return this.stamps.get(entry.record.id) === entry.stamp;
  }
}
