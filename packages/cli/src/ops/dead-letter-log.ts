import { randomUUID } from 'node:crypto';
import {
  catalogName,
  errorMessage,
  Schemas,
  Topics,
  type Bus,
  type Codec,
  type DeadLetter,
  type IncomingMessage,
} from '@crawler/core';

/** One record of the dead-letter topic: where it sits there, and the dead letter it holds. */
export interface DeadLetterEntry {
  partition: number;
  offset: number;
  /** The dead letter, its original topic named as the catalog names it. */
  letter: DeadLetter;
}

export interface DeadLetterLog {
  entries: DeadLetterEntry[];
  /** Records of the topic that are not dead letters (written by something else), with why. */
  unreadable: { partition: number; offset: number; reason: string }[];
}

export interface DeadLetterFilter {
  /** Original topics as the catalog names them. */
  topics?: string[];
  codes?: string[];
  /** Only dead letters written at or after this time (epoch ms). */
  since?: number;
}

/**
 * Reads the dead-letter topic from its oldest record to its end as it was when the call began,
 * under a throwaway group that commits nothing. The whole topic is read: it holds failures, which
 * are few, and retention (30 days) bounds it.
 */
export async function readDeadLetters(bus: Bus, codec: Codec): Promise<DeadLetterLog> {
  const topic = Topics.dlq;
  const groupId = `crawler-dlq-read-${randomUUID()}`;
  // With no commit, a group's lag is what the partition holds: end - first offset kept.
  const left = new Map(
    (await bus.lag(groupId, [topic])).filter(({ lag }) => lag > 0).map(({ partition, end }) => [partition, end]),
  );
  const log: DeadLetterLog = { entries: [], unreadable: [] };
  if (left.size === 0) return log;
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const consumer = bus.consumer({ groupId, topics: [topic], fromBeginning: true, clientId: 'dlq' });
  const onMessage = async (message: IncomingMessage) => {
    const end = left.get(message.partition);
    if (end === undefined || message.offset >= end) return;
    try {
      // A dead letter names its topic as the broker does; the crawl's bus sends it back by its catalog name.
      const letter = codec.decode<DeadLetter>(message.value, Schemas.DeadLetter);
      log.entries.push({
        partition: message.partition,
        offset: message.offset,
        letter: { ...letter, topic: catalogName(bus, letter.topic) },
      });
    } catch (error) {
      log.unreadable.push({ partition: message.partition, offset: message.offset, reason: errorMessage(error) });
    }
    if (message.offset === end - 1) left.delete(message.partition);
    if (left.size === 0) done();
  };
  try {
    await consumer.start({ onMessage });
    await finished;
  } finally {
    await consumer.stop();
  }
  log.entries.sort((a, b) => a.partition - b.partition || a.offset - b.offset);
  return log;
}

export function matchesDeadLetter(entry: DeadLetterEntry, filter: DeadLetterFilter): boolean {
  const { letter } = entry;
  if (filter.topics && !filter.topics.includes(letter.topic)) return false;
  if (filter.codes && !filter.codes.includes(letter.errorCode)) return false;
  return filter.since === undefined || letter.failedAt >= filter.since;
}
