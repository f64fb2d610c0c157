import { Topics, type Bus, type TopicPartitionOffset } from '@crawler/core';
import type { DeadLetterEntry } from './dead-letter-log.js';

/**
 * How far `crawler dlq replay` got, kept on the bus as committed offsets on the dead-letter topic:
 * one consumer group per original topic and error code, whose offset per partition is the next
 * dead letter of that topic and code not replayed yet. Per topic and code, so a replay limited to
 * one of them neither replays the others twice nor skips them for good.
 */
export class ReplayLedger {
  private readonly replayedBelow = new Map<string, Map<number, number>>();

  constructor(private readonly bus: Bus) {}

  /** The group of one original topic and code. */
  groupOf(entry: DeadLetterEntry): string {
    return `crawler-dlq-replay.${entry.letter.topic}.${entry.letter.errorCode}`;
  }

  /** Reads the committed offsets of the groups these entries belong to. */
  async load(entries: DeadLetterEntry[]): Promise<void> {
    const groups = [...new Set(entries.map((entry) => this.groupOf(entry)))].filter(
      (group) => !this.replayedBelow.has(group),
    );
    await Promise.all(
      groups.map(async (group) => {
        const lag = await this.bus.lag(group, [Topics.dlq]);
        this.replayedBelow.set(group, new Map(lag.map(({ partition, committed }) => [partition, committed])));
      }),
    );
  }

  /** True once a replay recorded this entry (load first). */
  replayed(entry: DeadLetterEntry): boolean {
    return entry.offset < (this.replayedBelow.get(this.groupOf(entry))?.get(entry.partition) ?? -1);
  }

  /** Moves each group's offset past the entries given (all of a group's entries up to them must be done). */
  async record(entries: DeadLetterEntry[]): Promise<void> {
    const offsets = new Map<string, Map<number, number>>();
    for (const entry of entries) {
      const group = this.groupOf(entry);
      const byPartition = offsets.get(group) ?? new Map<number, number>();
      byPartition.set(entry.partition, Math.max(byPartition.get(entry.partition) ?? 0, entry.offset + 1));
      offsets.set(group, byPartition);
    }
    await Promise.all(
      [...offsets].map(([group, byPartition]) =>
        this.commit(
          group,
          [...byPartition].map(([partition, offset]) => ({ topic: Topics.dlq, partition, offset })),
        ),
      ),
    );
  }

  /** A bus commits only for a member holding the partitions: join, commit, leave without reading. */
  private async commit(group: string, offsets: TopicPartitionOffset[]): Promise<void> {
    const member = this.bus.consumer({
      groupId: group,
      topics: [Topics.dlq],
      fromBeginning: false,
      clientId: 'dlq-replay',
    });
    await member.start({ onMessage: async () => undefined });
    try {
      member.pause();
      await member.commit(offsets);
      const replayed = this.replayedBelow.get(group) ?? new Map<number, number>();
      for (const { partition, offset } of offsets) replayed.set(partition, offset);
      this.replayedBelow.set(group, replayed);
    } finally {
      await member.stop();
    }
  }
}
