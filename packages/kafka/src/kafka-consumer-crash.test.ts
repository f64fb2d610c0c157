import { EventEmitter } from 'node:events';
import { silentLogger } from '@crawler/core';
import { waitFor } from '@crawler/core/testing';
import type { Kafka } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { KafkaConsumer } from './kafka-consumer.js';

const EVENTS = { GROUP_JOIN: 'group_join', CRASH: 'crash', REQUEST: 'request' } as const;

/**
 * A kafkajs consumer reduced to what KafkaConsumer drives: each run() joins (GROUP_JOIN) unless
 * `joins` says this attempt crashes without restart, the way kafkajs reports a failed join.
 */
function fakeKafka(joins: boolean[]) {
  const emitter = new EventEmitter();
  const calls = { run: 0, connect: 0, disconnect: 0 };
  const emit = (event: string, payload: unknown) => emitter.emit(event, { payload });
  const consumer = {
    events: EVENTS,
    on: (event: string, listener: (e: unknown) => void) => (
      emitter.on(event, listener),
      () => emitter.off(event, listener)
    ),
    connect: async () => void calls.connect++,
    subscribe: async () => undefined,
    run: async () => {
      const joined = joins[calls.run++] ?? true;
      if (joined) emit(EVENTS.GROUP_JOIN, { memberAssignment: { 'crawl.parsed': [0, 1] } });
      else emit(EVENTS.CRASH, { error: new Error('Failed to find group coordinator'), restart: false });
    },
    disconnect: async () => void calls.disconnect++,
    pause: () => undefined,
    resume: () => undefined,
    commitOffsets: async () => undefined,
  };
  const kafka = { consumer: () => consumer } as unknown as Kafka;
  return {
    kafka,
    calls,
    crash: () => emit(EVENTS.CRASH, { error: new Error('Failed to find group coordinator'), restart: false }),
  };
}

describe('KafkaConsumer after a crash kafkajs does not restart from', () => {
  it('rejoins its group by itself, retrying while the join fails, and stops trying when stopped', async () => {
    const fake = fakeKafka([true, false, true]);
    const consumer = new KafkaConsumer(
      fake.kafka,
      { groupId: 'g', topics: ['crawl.parsed'], fromBeginning: true },
      { sessionTimeoutMs: 10_000, rebalanceTimeoutMs: 10_000 },
      async () => 'Stable',
      silentLogger(),
      (text) => text,
    );
    const assignments: number[] = [];
    const revoked: number[] = [];
    await consumer.start({
      onMessage: async () => undefined,
      onAssigned: (partitions) => void assignments.push(partitions.length),
      onRevoked: async (partitions) => void revoked.push(partitions.length),
    });
    expect(assignments).toEqual([2]);

    fake.crash();
    // First rejoin after 1 s fails (another crash), the second after 2 s more succeeds.
    await waitFor(() => assignments.length === 2, 6000);
    expect(fake.calls.run).toBe(3);
    expect(revoked).toEqual([2]);

    fake.crash();
    await consumer.stop();
    // negative window: past the 1 s rejoin delay, in which a stopped consumer must not rejoin; holds however slow the machine.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(fake.calls.run).toBe(3);
  }, 15_000);
});
