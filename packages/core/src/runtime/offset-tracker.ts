import type { TopicPartition, TopicPartitionOffset } from '../ports/bus.js';

interface PartitionWindow {
  /** Offsets delivered and not yet committable, in delivery (offset) order. */
  offsets: number[];
  done: boolean[];
  head: number;
  /** Next offset to commit: everything below it is finished. */
  committable: number;
  committed: number;
}

/**
 * Tracks work that finishes out of order and yields, per partition, the lowest offset below which
 * everything is finished. Committing that offset never skips unfinished work, so a crash only
 * causes redelivery (at-least-once), never loss.
 */
export class OffsetTracker {
  private readonly windows = new Map<string, PartitionWindow>();

  /** Registers a delivered offset as in flight. Offsets of one partition arrive in order. */
  begin(topic: string, partition: number, offset: number): void {
    const key = keyOf(topic, partition);
    let window = this.windows.get(key);
    if (!window) {
      window = { offsets: [], done: [], head: 0, committable: offset, committed: offset };
      this.windows.set(key, window);
    }
    window.offsets.push(offset);
    window.done.push(false);
  }

  /** Marks an offset finished; returns false if its partition is no longer tracked (revoked). */
  finish(topic: string, partition: number, offset: number): boolean {
    const window = this.windows.get(keyOf(topic, partition));
    if (!window) return false;
    const index = indexOf(window, offset);
    if (index < 0) return false;
    window.done[index] = true;
    while (window.head < window.offsets.length && window.done[window.head]) {
      window.committable = window.offsets[window.head]! + 1;
      window.head++;
    }
    if (window.head > 1024 && window.head * 2 > window.offsets.length) {
      window.offsets = window.offsets.slice(window.head);
      window.done = window.done.slice(window.head);
      window.head = 0;
    }
    return true;
  }

  /** Offsets that advanced since the last call to markCommitted. */
  pending(): TopicPartitionOffset[] {
    const out: TopicPartitionOffset[] = [];
    for (const [key, window] of this.windows) {
      if (window.committable > window.committed) {
        const [topic, partition] = splitKey(key);
        out.push({ topic, partition, offset: window.committable });
      }
    }
    return out;
  }

  markCommitted(offsets: TopicPartitionOffset[]): void {
    for (const { topic, partition, offset } of offsets) {
      const window = this.windows.get(keyOf(topic, partition));
      if (window && offset > window.committed) window.committed = offset;
    }
  }

  inFlight(): number {
    let count = 0;
    for (const window of this.windows.values()) count += window.offsets.length - window.head;
    return count;
  }

  /** Forgets revoked partitions: their unfinished work is redelivered to the new owner. */
  drop(partitions: TopicPartition[]): void {
    for (const { topic, partition } of partitions) this.windows.delete(keyOf(topic, partition));
  }
}

function keyOf(topic: string, partition: number): string {
  return `${partition}:${topic}`;
}

function splitKey(key: string): [string, number] {
  const colon = key.indexOf(':');
  return [key.slice(colon + 1), Number(key.slice(0, colon))];
}

function indexOf(window: PartitionWindow, offset: number): number {
  // Offsets are increasing, usually contiguous: try the direct position before searching.
  const guess = window.head + (offset - (window.offsets[window.head] ?? offset));
  if (window.offsets[guess] === offset) return guess;
  let lo = window.head;
  let hi = window.offsets.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const value = window.offsets[mid]!;
    if (value === offset) return mid;
    if (value < offset) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
