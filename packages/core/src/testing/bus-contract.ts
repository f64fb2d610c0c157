import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bus, BusConsumer, IncomingMessage } from '../ports/bus.js';
import { partitionForKey } from '../runtime/partitioner.js';
import { waitFor } from './wait-for.js';

export interface BusContractHarness {
  bus: Bus;
  /** Time a rebalance may take on this bus. */
  rebalanceMs: number;
  cleanup?(): Promise<void>;
}

/** The behaviour every Bus adapter must have; run it against each adapter. */
export function describeBusContract(adapter: string, create: () => Promise<BusContractHarness>): void {
  describe(`Bus contract: ${adapter}`, () => {
    let harness: BusContractHarness;
    const consumers: BusConsumer[] = [];
    beforeAll(async () => {
      harness = await create();
    });
    afterAll(async () => {
      await Promise.all(consumers.map((consumer) => consumer.stop().catch(() => undefined)));
      await harness.bus.close();
      await harness.cleanup?.();
    });

    async function topic(partitions = 4): Promise<string> {
      const name = `contract.${randomUUID().slice(0, 8)}`;
      await harness.bus.createTopics([{ name, partitions, retentionMs: 3_600_000, maxMessageBytes: 1_048_576 }]);
      return name;
    }

    function collect(groupId: string, topics: string[], options: { fromBeginning?: boolean } = {}) {
      const received: IncomingMessage[] = [];
      const consumer = harness.bus.consumer({ groupId, topics, fromBeginning: options.fromBeginning ?? true });
      consumers.push(consumer);
      const started = consumer.start({
        onMessage: async (message) => {
          received.push(message);
        },
      });
      return { consumer, received, started };
    }

    it('delivers keyed messages in order within the partition murmur2 picks, with headers', async () => {
      const name = await topic(4);
      const producer = harness.bus.producer();
      const values = Array.from({ length: 20 }, (_, i) => ({
        key: i % 2 === 0 ? 'host-a' : 'host-b',
        value: Buffer.from(`m${i}`),
        headers: { 'trace-id': `t${i}` },
      }));
      await producer.send(name, values);
      const { received, started } = collect(`g-${randomUUID()}`, [name]);
      await started;
      await waitFor(() => received.length === 20, 15_000);
      for (const key of ['host-a', 'host-b']) {
        const mine = received.filter((message) => message.key?.toString() === key);
        expect(new Set(mine.map((message) => message.partition))).toEqual(new Set([partitionForKey(key, 4)]));
        const order = mine.map((message) => Number(message.value.toString().slice(1)));
        expect(order).toEqual([...order].sort((a, b) => a - b));
        expect(mine.map((message) => message.offset)).toEqual(
          [...mine.map((message) => message.offset)].sort((a, b) => a - b),
        );
      }
      expect(received.find((message) => message.value.toString() === 'm3')?.headers['trace-id']).toBe('t3');
      await producer.close();
    });

    it('resumes a group after its committed offset and redelivers what was not committed', async () => {
      const name = await topic(1);
      const producer = harness.bus.producer();
      await producer.send(
        name,
        Array.from({ length: 10 }, (_, i) => ({ key: 'k', value: Buffer.from(String(i)) })),
      );
      const groupId = `g-${randomUUID()}`;
      const first = collect(groupId, [name]);
      await first.started;
      await waitFor(() => first.received.length === 10, 15_000);
      await first.consumer.commit([{ topic: name, partition: 0, offset: 6 }]);
      await first.consumer.stop();
      const second = collect(groupId, [name]);
      await second.started;
      await waitFor(() => second.received.length === 4, 15_000 + harness.rebalanceMs);
      expect(second.received.map((message) => message.value.toString())).toEqual(['6', '7', '8', '9']);
      const lag = await harness.bus.lag(groupId, [name]);
      expect(lag).toEqual([{ topic: name, partition: 0, committed: 6, end: 10, lag: 4 }]);
      await producer.close();
    });

    it('splits partitions between members of a group and hands them over when one leaves', async () => {
      const name = await topic(4);
      const groupId = `g-${randomUUID()}`;
      const a = collect(groupId, [name]);
      await a.started;
      const b = collect(groupId, [name]);
      await b.started;
      const producer = harness.bus.producer();
      await waitFor(
        async () => {
          await producer.send(
            name,
            Array.from({ length: 8 }, (_, i) => ({ key: `host-${i}`, value: Buffer.from('probe') })),
          );
          return a.received.length > 0 && b.received.length > 0;
        },
        20_000 + harness.rebalanceMs,
        500,
      );
      const partitionsOf = (messages: IncomingMessage[]) => new Set(messages.map((message) => message.partition));
      for (const partition of partitionsOf(a.received)) expect(partitionsOf(b.received).has(partition)).toBe(false);
      await a.consumer.commit([]);
      await a.consumer.stop();
      const before = b.received.length;
      await producer.send(
        name,
        Array.from({ length: 40 }, (_, i) => ({ key: `host-${i}`, value: Buffer.from('after') })),
      );
      await waitFor(
        () => b.received.filter((message) => message.value.toString() === 'after').length === 40,
        20_000 + harness.rebalanceMs,
      );
      expect(b.received.length).toBeGreaterThanOrEqual(before + 40);
      await producer.close();
    });

    it('gives each group every message', async () => {
      const name = await topic(2);
      const producer = harness.bus.producer();
      await producer.send(
        name,
        Array.from({ length: 6 }, (_, i) => ({ key: `k${i}`, value: Buffer.from(String(i)) })),
      );
      const one = collect(`g-${randomUUID()}`, [name]);
      const two = collect(`g-${randomUUID()}`, [name]);
      await Promise.all([one.started, two.started]);
      await waitFor(() => one.received.length === 6 && two.received.length === 6, 15_000);
      await producer.close();
    });

    it('delivers the next message of a partition only after the handler resolved (backpressure)', async () => {
      const name = await topic(1);
      const producer = harness.bus.producer();
      await producer.send(
        name,
        [0, 1, 2].map((i) => ({ key: 'k', value: Buffer.from(String(i)) })),
      );
      const gates: (() => void)[] = [];
      const seen: string[] = [];
      const consumer = harness.bus.consumer({ groupId: `g-${randomUUID()}`, topics: [name], fromBeginning: true });
      consumers.push(consumer);
      await consumer.start({
        onMessage: (message) => {
          seen.push(message.value.toString());
          return new Promise<void>((resolve) => gates.push(resolve));
        },
      });
      await waitFor(() => seen.length === 1, 15_000);
      // negative window: the next message must not arrive while the handler is pending; holds however slow the machine.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(seen).toEqual(['0']);
      gates.shift()!();
      await waitFor(() => seen.length === 2, 5_000);
      gates.shift()!();
      await waitFor(() => seen.length === 3, 5_000);
      gates.shift()!();
      await producer.close();
    });

    it('stops delivering while paused and continues after resume', async () => {
      const name = await topic(1);
      const producer = harness.bus.producer();
      const { consumer, received, started } = collect(`g-${randomUUID()}`, [name]);
      await started;
      await producer.send(name, [{ key: 'k', value: Buffer.from('first') }]);
      await waitFor(() => received.length === 1, 15_000);
      consumer.pause();
      await producer.send(name, [{ key: 'k', value: Buffer.from('second') }]);
      // negative window: a paused consumer must not deliver in it; holds however slow the machine.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(received.length).toBe(1);
      consumer.resume();
      await waitFor(() => received.length === 2, 15_000);
      await producer.close();
    });

    it('starts at the log end when fromBeginning is false', async () => {
      const name = await topic(1);
      const producer = harness.bus.producer();
      await producer.send(name, [{ key: 'k', value: Buffer.from('old') }]);
      const { received, started } = collect(`g-${randomUUID()}`, [name], { fromBeginning: false });
      // start() resolves once the position is fixed at the log end, so a message sent now is the first one seen.
      await started;
      await producer.send(name, [{ key: 'k', value: Buffer.from('new') }]);
      await waitFor(() => received.length >= 1, 15_000);
      expect(received.map((message) => message.value.toString())).toEqual(['new']);
      await producer.close();
    });
  });
}
