import {
  BatchingProducer,
  Codec,
  CrawlerError,
  loadCatalog,
  prefixTopics,
  Schemas,
  silentLogger,
  StageRunner,
  Topics,
} from '@crawler/core';
import type { DeadLetter, Emission, FrontierRequest, Stage, StatusUpdate } from '@crawler/core';
import { sampleMessages, waitFor } from '@crawler/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { InProcessBus } from './in-process-bus.js';

const codec = new Codec();

async function setup(stage: Stage<FrontierRequest>, options: { concurrency?: number; maxAttempts?: number } = {}) {
  const bus = new InProcessBus();
  await bus.createTopics(loadCatalog().topics);
  const producer = new BatchingProducer(bus.producer());
  const runner = new StageRunner({
    stage,
    bus,
    codec,
    producer,
    groupId: 'test',
    logger: silentLogger(),
    concurrency: options.concurrency ?? 4,
    maxAttempts: options.maxAttempts ?? 3,
    retryBaseMs: 1,
    commitIntervalMs: 20,
  });
  const statuses: StatusUpdate[] = [];
  const dead: DeadLetter[] = [];
  const tap = bus.consumer({ groupId: 'tap', topics: [Topics.status, Topics.dlq], fromBeginning: true });
  await tap.start({
    onMessage: async (message) => {
      if (message.topic === Topics.status) statuses.push(codec.decode(message.value));
      else dead.push(codec.decode(message.value));
    },
  });
  await runner.start();
  const send = (values: Buffer[]) =>
    bus.producer().send(
      Topics.frontier,
      values.map((value) => ({ key: 'news.example.test', value })),
    );
  return { bus, runner, statuses, dead, send, tap };
}

function statusFor(request: FrontierRequest, outcome: string): Emission {
  const value: StatusUpdate = {
    ...sampleMessages[Schemas.StatusUpdate],
    url: request.url,
    urlId: request.urlId,
    outcome,
  };
  return { topic: Topics.status, schema: Schemas.StatusUpdate, key: request.queueKey, value };
}

const request = (n: number): Buffer =>
  codec.encode(Schemas.FrontierRequest, {
    ...sampleMessages[Schemas.FrontierRequest],
    url: `http://news.example.test/${n}`,
  });

describe('StageRunner', () => {
  let cleanup: (() => Promise<void>) | null = null;
  afterEach(async () => {
    await cleanup?.();
    cleanup = null;
  });

  it('produces what the stage emits and commits the lowest contiguous finished offset', async () => {
    // The first request is held until the three after it have produced their statuses.
    let releaseFirst = () => {};
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    const stage: Stage<FrontierRequest> = {
      name: 'test',
      input: { topic: Topics.frontier, schema: Schemas.FrontierRequest },
      outputs: [Topics.status],
      handle: async (input) => {
        if (input.url.endsWith('/0')) await firstHeld;
        return [statusFor(input, 'ok')];
      },
    };
    const { bus, runner, statuses, send, tap } = await setup(stage);
    cleanup = async () => {
      await runner.stop();
      await tap.stop();
      await bus.close();
    };
    await send([0, 1, 2, 3].map(request));
    await waitFor(() => statuses.length === 3, 10_000, 20, 'the statuses of requests 1 to 3');
    releaseFirst();
    await waitFor(() => statuses.length === 4);
    expect(statuses.map((status) => status.url).slice(0, 3)).toEqual([
      'http://news.example.test/1',
      'http://news.example.test/2',
      'http://news.example.test/3',
    ]);
    await waitFor(async () =>
      (await bus.lag('test', [Topics.frontier])).every((p) => p.lag === 0 && (p.end === 0 || p.committed === p.end)),
    );
  });

  it('dead-letters undecodable bytes with the original payload and keeps the partition flowing', async () => {
    const stage: Stage<FrontierRequest> = {
      name: 'test',
      input: { topic: Topics.frontier, schema: Schemas.FrontierRequest },
      outputs: [Topics.status],
      handle: async (input) => [statusFor(input, 'ok')],
    };
    const { bus, runner, statuses, dead, send, tap } = await setup(stage);
    cleanup = async () => {
      await runner.stop();
      await tap.stop();
      await bus.close();
    };
    const garbage = Buffer.from('not avro at all');
    await send([request(1), garbage, codec.encode(Schemas.Outlinks, sampleMessages[Schemas.Outlinks]), request(2)]);
    await waitFor(() => statuses.length === 2 && dead.length === 2);
    expect(dead.map((d) => d.errorCode).sort()).toEqual(['CODEC_BAD_HEADER', 'CODEC_WRONG_SCHEMA']);
    expect(dead.find((d) => d.errorCode === 'CODEC_BAD_HEADER')!.value.equals(garbage)).toBe(true);
    expect(dead[0]!.service).toBe('test');
  });

  it('behind a topic prefix works by catalog names, and names topics as Kafka does in dead letters and counts', async () => {
    const inner = new InProcessBus();
    const bus = prefixTopics(inner, 'crawl-7.');
    await bus.createTopics(loadCatalog().topics);
    const consumed: string[] = [];
    const stage: Stage<FrontierRequest> = {
      name: 'test',
      input: { topic: Topics.frontier, schema: Schemas.FrontierRequest },
      outputs: [Topics.status],
      handle: async (input) => [statusFor(input, 'ok')],
    };
    const runner = new StageRunner({
      stage,
      bus,
      codec,
      producer: new BatchingProducer(bus.producer()),
      groupId: 'fetcher',
      logger: silentLogger(),
      concurrency: 2,
      commitIntervalMs: 20,
      observer: { consumed: (topic) => void consumed.push(topic) },
    });
    const dead: DeadLetter[] = [];
    const statuses: string[] = [];
    const tap = inner.consumer({
      groupId: 'tap',
      topics: ['crawl-7.crawl.status', 'crawl-7.crawl.dlq'],
      fromBeginning: true,
    });
    await tap.start({
      onMessage: async (message) => {
        if (message.topic === 'crawl-7.crawl.dlq') dead.push(codec.decode(message.value));
        else statuses.push(codec.decode<StatusUpdate>(message.value).url);
      },
    });
    cleanup = async () => {
      await runner.stop();
      await tap.stop();
      await inner.close();
    };
    await runner.start();
    await bus.producer().send(Topics.frontier, [
      { key: 'a.test', value: request(1) },
      { key: 'a.test', value: Buffer.from('garbage') },
    ]);
    await waitFor(() => statuses.length === 1 && dead.length === 1);
    expect(dead[0]).toMatchObject({ topic: 'crawl-7.crawl.frontier', consumerGroup: 'crawl-7.fetcher' });
    expect(consumed).toEqual(['crawl-7.crawl.frontier', 'crawl-7.crawl.frontier']);
    await waitFor(async () =>
      (await inner.lag('crawl-7.fetcher', ['crawl-7.crawl.frontier'])).some((partition) => partition.committed === 2),
    );
  });

  it('retries retriable failures, then dead-letters and emits the give-up status', async () => {
    let calls = 0;
    const stage: Stage<FrontierRequest> = {
      name: 'test',
      input: { topic: Topics.frontier, schema: Schemas.FrontierRequest },
      outputs: [Topics.status],
      handle: async () => {
        calls++;
        throw new CrawlerError('DEDUP_JUDGE_UNAVAILABLE', 'judge unavailable');
      },
      onGiveUp: (input) => [statusFor(input, 'processing_failed')],
    };
    const { bus, runner, statuses, dead, send, tap } = await setup(stage, { maxAttempts: 3 });
    cleanup = async () => {
      await runner.stop();
      await tap.stop();
      await bus.close();
    };
    await send([request(1)]);
    await waitFor(() => dead.length === 1 && statuses.length === 1);
    expect(calls).toBe(3);
    expect(dead[0]).toMatchObject({ errorCode: 'DEDUP_JUDGE_UNAVAILABLE', attempts: 3 });
    expect(statuses[0]!.outcome).toBe('processing_failed');
  });

  it('handles inputs of one order key one after another, retries included, and other keys alongside', async () => {
    const events: string[] = [];
    let failedOnce = false;
    const stage: Stage<FrontierRequest> = {
      name: 'test',
      input: { topic: Topics.frontier, schema: Schemas.FrontierRequest },
      outputs: [Topics.status],
      orderKey: (input) => input.url,
      handle: async (input) => {
        const name = `${input.url.slice(-1)}@${input.attempt}`;
        events.push(`start ${name}`);
        await new Promise((resolve) => setImmediate(resolve));
        if (name === '1@1' && !failedOnce) {
          failedOnce = true;
          events.push(`fail ${name}`);
          throw new CrawlerError('DEDUP_JUDGE_UNAVAILABLE', 'judge unavailable');
        }
        events.push(`end ${name}`);
        return [statusFor(input, 'ok')];
      },
    };
    const { bus, runner, statuses, send, tap } = await setup(stage, { concurrency: 4 });
    cleanup = async () => {
      await runner.stop();
      await tap.stop();
      await bus.close();
    };
    const fetchOf = (n: number, fetchAttempt: number) =>
      codec.encode(Schemas.FrontierRequest, {
        ...sampleMessages[Schemas.FrontierRequest],
        url: `http://news.example.test/${n}`,
        attempt: fetchAttempt,
      });
    await send([fetchOf(1, 1), fetchOf(1, 2), fetchOf(2, 1)]);
    await waitFor(() => statuses.length === 3);
    // The second fetch of /1 begins only after the first one's retry has ended; /2 did not wait.
    expect(events.indexOf('start 1@2')).toBeGreaterThan(events.indexOf('end 1@1'));
    expect(events.filter((event) => event === 'start 1@1')).toHaveLength(2);
    expect(events.indexOf('start 2@1')).toBeLessThan(events.indexOf('end 1@1'));
  });

  it('does not retry a non-retriable failure', async () => {
    let calls = 0;
    const stage: Stage<FrontierRequest> = {
      name: 'test',
      input: { topic: Topics.frontier, schema: Schemas.FrontierRequest },
      outputs: [Topics.status],
      handle: async () => {
        calls++;
        throw new CrawlerError('CODEC_INVALID_VALUE', 'cannot handle');
      },
    };
    const { bus, runner, dead, send, tap } = await setup(stage);
    cleanup = async () => {
      await runner.stop();
      await tap.stop();
      await bus.close();
    };
    await send([request(1)]);
    await waitFor(() => dead.length === 1);
    expect(calls).toBe(1);
  });

  it('keeps at most `concurrency` messages in flight', async () => {
    let active = 0;
    let peak = 0;
    let started = 0;
    const held: (() => void)[] = [];
    const stage: Stage<FrontierRequest> = {
      name: 'test',
      input: { topic: Topics.frontier, schema: Schemas.FrontierRequest },
      outputs: [Topics.status],
      handle: async (input) => {
        started++;
        active++;
        peak = Math.max(peak, active);
        // Each handler is held until a third is in flight (or the last ones run), so the cap is reached whatever the machine's speed.
        const released = new Promise<void>((resolve) => held.push(resolve));
        if (active === 3 || started === 30)
          // negative window: 20 ms at the cap in which a fourth message must not start; a slow machine only starts fewer.
          setTimeout(() => held.splice(0).forEach((release) => release()), 20);
        await released;
        active--;
        return [statusFor(input, 'ok')];
      },
    };
    const { bus, runner, statuses, send, tap } = await setup(stage, { concurrency: 3 });
    cleanup = async () => {
      await runner.stop();
      await tap.stop();
      await bus.close();
    };
    await send(Array.from({ length: 30 }, (_, n) => request(n)));
    await waitFor(() => statuses.length === 30);
    expect(peak).toBe(3);
  });

  it('on stop, hands unfinished work back uncommitted so a restart redelivers it', async () => {
    const gate: (() => void)[] = [];
    const stage: Stage<FrontierRequest> = {
      name: 'test',
      input: { topic: Topics.frontier, schema: Schemas.FrontierRequest },
      outputs: [Topics.status],
      handle: (input) => new Promise<Emission[]>((resolve) => gate.push(() => resolve([statusFor(input, 'ok')]))),
    };
    const bus = new InProcessBus();
    await bus.createTopics(loadCatalog().topics);
    const producer = new BatchingProducer(bus.producer());
    const runner = new StageRunner({
      stage,
      bus,
      codec,
      producer,
      groupId: 'test',
      logger: silentLogger(),
      concurrency: 2,
      drainTimeoutMs: 100,
      commitIntervalMs: 10,
    });
    await runner.start();
    await bus.producer().send(
      Topics.frontier,
      [0, 1, 2].map((n) => ({ key: 'k', value: request(n) })),
    );
    await waitFor(() => gate.length === 2);
    gate.shift()!();
    await runner.stop();
    const [lag] = (await bus.lag('test', [Topics.frontier])).filter((p) => p.end > 0);
    expect(lag).toMatchObject({ committed: 1, end: 3 });
    await bus.close();
  });

  it('finishes in-flight work before its partitions move to a new member, so nothing is done twice', async () => {
    const handled: string[] = [];
    // Work is held until the second member's join has begun revoking the first's partitions.
    let startRebalance = () => {};
    const rebalancing = new Promise<void>((resolve) => (startRebalance = resolve));
    const stage: Stage<FrontierRequest> = {
      name: 'test',
      input: { topic: Topics.frontier, schema: Schemas.FrontierRequest },
      outputs: [Topics.status],
      handle: async (input) => {
        await rebalancing;
        handled.push(input.url);
        return [statusFor(input, 'ok')];
      },
    };
    const bus = new InProcessBus();
    await bus.createTopics(loadCatalog().topics);
    const make = () =>
      new StageRunner({
        stage,
        bus,
        codec,
        producer: new BatchingProducer(bus.producer()),
        groupId: 'test',
        logger: silentLogger(),
        concurrency: 8,
        commitIntervalMs: 10_000,
      });
    const first = make();
    await first.start();
    await bus.producer().send(
      Topics.frontier,
      Array.from({ length: 24 }, (_, n) => ({ key: `host-${n}`, value: request(n) })),
    );
    await waitFor(() => first.busy > 0);
    const second = make();
    const joined = second.start();
    // The in-process group revokes on microtasks, so by the next macrotask the first member is draining.
    await new Promise((resolve) => setImmediate(resolve));
    startRebalance();
    await joined;
    await waitFor(() => handled.length >= 24, 15_000);
    // negative window: a redelivered URL would be handled again within it; with none, this holds however slow the machine.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(handled).toHaveLength(24);
    expect(new Set(handled).size).toBe(24);
    await first.stop();
    await second.stop();
    await bus.close();
  });
});
