import { randomUUID } from 'node:crypto';
import { Codec, type Bus } from '@crawler/core';

/**
 * Every record of a topic from its oldest to its end as it was when the call began, decoded,
 * under a throwaway group that commits nothing: what the services wrote, read as any consumer would.
 */
export async function readTopic<T>(bus: Bus, topic: string, schema: string, timeoutMs = 60_000): Promise<T[]> {
  const codec = new Codec();
  const groupId = `test-read-${randomUUID()}`;
  // With no commit, a group's lag is what the partition holds.
  const left = new Map(
    (await bus.lag(groupId, [topic])).filter(({ lag }) => lag > 0).map(({ partition, end }) => [partition, end]),
  );
  const records: T[] = [];
  if (left.size === 0) return records;
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const consumer = bus.consumer({ groupId, topics: [topic], fromBeginning: true });
  try {
    await consumer.start({
      onMessage: async (message) => {
        const end = left.get(message.partition);
        if (end === undefined || message.offset >= end) return;
        records.push(codec.decode<T>(message.value, schema));
        if (message.offset === end - 1) left.delete(message.partition);
        if (left.size === 0) done();
      },
    });
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const partitions = [...left].map(([partition, end]) => `${partition} (end ${end})`).join(', ');
        reject(
          new Error(`reading ${topic} took over ${timeoutMs} ms; partitions not read to their end: ${partitions}`),
        );
      }, timeoutMs);
    });
    await Promise.race([finished, expired]).finally(() => clearTimeout(timer));
  } finally {
    await consumer.stop();
  }
  return records;
}
