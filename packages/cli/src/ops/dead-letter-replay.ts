import { brokerName, Topics, type Bus, type OutgoingMessage } from '@crawler/core';
import type { DeadLetterEntry } from './dead-letter-log.js';
import type { ReplayLedger } from './replay-ledger.js';

/** Header on a replayed record: the dead letter it came from, as `<dlq topic>/<partition>/<offset>`. */
export const REPLAY_HEADER = 'crawler-replay-of';

export interface ReplayPlan {
  /** Whole records not replayed yet: these go back to their topics. */
  toReplay: DeadLetterEntry[];
  /** Values cut to fit the dead-letter topic: the original record is gone, so they are never replayed. */
  cut: DeadLetterEntry[];
  /** Replayed by an earlier run. */
  alreadyReplayed: DeadLetterEntry[];
}

/** Sorts the matching entries by what a replay does with them (the ledger loaded for them). */
export function planReplay(entries: DeadLetterEntry[], ledger: ReplayLedger): ReplayPlan {
  const plan: ReplayPlan = { toReplay: [], cut: [], alreadyReplayed: [] };
  for (const entry of entries) {
    if (ledger.replayed(entry)) plan.alreadyReplayed.push(entry);
    else if (entry.letter.valueTruncatedFrom !== null) plan.cut.push(entry);
    else plan.toReplay.push(entry);
  }
  return plan;
}

/**
 * Produces each record's original key, headers and bytes to its original topic, in dead-letter
 * order, then records them (and the cut ones) in the ledger. A crash between the two replays them
 * again on the next run: the crawl's sinks are idempotent, so at-least-once is safe here too.
 */
export async function replay(bus: Bus, plan: ReplayPlan, ledger: ReplayLedger): Promise<Map<string, number>> {
  const dlqTopic = brokerName(bus, Topics.dlq);
  const byTopic = new Map<string, OutgoingMessage[]>();
  for (const { partition, offset, letter } of plan.toReplay) {
    const messages = byTopic.get(letter.topic) ?? [];
    // Bus keys are strings; the crawl's keys are host names, so UTF-8 round-trips them.
    messages.push({
      key: letter.key?.toString('utf8') ?? null,
      value: letter.value,
      headers: { ...letter.headers, [REPLAY_HEADER]: `${dlqTopic}/${partition}/${offset}` },
    });
    byTopic.set(letter.topic, messages);
  }
  const producer = bus.producer();
  try {
    await Promise.all([...byTopic].map(([topic, messages]) => producer.send(topic, messages)));
  } finally {
    await producer.close();
  }
  await ledger.record([...plan.toReplay, ...plan.cut]);
  return new Map([...byTopic].map(([topic, messages]) => [topic, messages.length]));
}
