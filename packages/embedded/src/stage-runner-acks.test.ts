import { BackendError, Codec, loadCatalog, Schemas, silentLogger, StageRunner, Topics } from '@crawler/core';
import type { BusProducer, FrontierRequest, OutgoingMessage, Stage, StatusUpdate } from '@crawler/core';
import { sampleMessages, waitFor } from '@crawler/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { InProcessBus } from './in-process-bus.js';

const codec = new Codec();
const url = (n: number) => `http://news.example.test/${n}`;
const request = (n: number): Buffer =>
  codec.encode(Schemas.FrontierRequest, { ...sampleMessages[Schemas.FrontierRequest], url: url(n) });
const urlOf = (message: OutgoingMessage) => codec.decode<StatusUpdate>(message.value).url;

/** Answers every request with one status: what is produced for a message, and must be acknowledged before its offset commits. */
const stage: Stage<FrontierRequest> = {
  name: 'test',
  input: { topic: Topics.frontier, schema: Schemas.FrontierRequest },
  outputs: [Topics.status],
  handle: async (input) => [
    {
      topic: Topics.status,
      schema: Schemas.StatusUpdate,
      key: input.queueKey,
      value: { ...sampleMessages[Schemas.StatusUpdate], url: input.url, outcome: 'ok' },
    },
  ],
};

describe('StageRunner commits only what the bus acknowledged', () => {
  let cleanup: (() => Promise<void>) | null = null;
  afterEach(async () => {
    await cleanup?.();
    cleanup = null;
  });

  /**
   * A runner on a fresh bus whose producer is `wrap`ped around the bus's own (the wrapper may read
   * the group's committed offset), fed `count` requests; commits are tried every 10 ms.
   */
  async function setup(
    count: number,
    wrap: (inner: BusProducer, committed: () => Promise<number>) => BusProducer,
    retryBaseMs = 1,
  ) {
    const bus = new InProcessBus();
    await bus.createTopics(loadCatalog().topics);
    const committed = async () =>
      (await bus.lag('test', [Topics.frontier])).find((partition) => partition.end > 0)!.committed;
    const runner = new StageRunner({
      stage,
      bus,
      codec,
      producer: wrap(bus.producer(), committed),
      groupId: 'test',
      logger: silentLogger(),
      concurrency: 4,
      retryBaseMs,
      commitIntervalMs: 10,
      drainTimeoutMs: 100,
    });
    await runner.start();
    // One key: every message lands in one partition, in order.
    await bus.producer().send(
      Topics.frontier,
      Array.from({ length: count }, (_, n) => ({ key: 'news.example.test', value: request(n) })),
    );
    cleanup = async () => {
      await runner.stop();
      await bus.close();
    };
    return committed;
  }

  it('holds the commit at a message whose produce is unacknowledged, though later messages finished, then moves past it', async () => {
    let acknowledge = () => {};
    const acknowledged = new Promise<void>((resolve) => (acknowledge = resolve));
    const sent: string[] = [];
    // The held status is written to the bus; only its acknowledgement waits, as with a slow broker.
    const committed = await setup(3, (inner) => ({
      send: async (topic, messages) => {
        await inner.send(topic, messages);
        sent.push(...messages.map(urlOf));
        if (messages.some((message) => urlOf(message) === url(1))) await acknowledged;
      },
      close: () => inner.close(),
    }));
    try {
      await waitFor(() => sent.length === 3);
      await waitFor(async () => (await committed()) === 1, 10_000, 20, 'offset 0 to commit');
      // negative window: twenty commit intervals in which the commit must not pass the unacknowledged offset 1; a slow machine only tries fewer commits.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await committed()).toBe(1); // offset 1 waits for its acknowledgement
    } finally {
      acknowledge();
    }
    await waitFor(async () => (await committed()) === 3);
  });

  it('retries a produce that failed (as the Kafka adapter fails it), and commits only after a send is acknowledged', async () => {
    let attempts = 0;
    const committedAtAttempt: number[] = [];
    const committed = await setup(
      1,
      (inner, committedNow) => ({
        send: async (topic, messages) => {
          committedAtAttempt.push(await committedNow());
          if (++attempts <= 2)
            throw new BackendError('producing 1 message(s) to crawl.status failed: broker not answering');
          await inner.send(topic, messages);
        },
        close: () => inner.close(),
      }),
      40,
    );
    await waitFor(() => attempts === 3);
    await waitFor(async () => (await committed()) === 1);
    // Attempts 2 and 3 came 20-80 ms after a failure, several commit intervals: nothing was committed meanwhile.
    expect(committedAtAttempt).toEqual([-1, -1, -1]);
    expect(attempts).toBe(3);
  });
});
