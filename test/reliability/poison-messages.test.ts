import {
  BatchingProducer,
  Codec,
  loadCatalog,
  Schemas,
  silentLogger,
  StageRunner,
  topicSpec,
  Topics,
  type DeadLetter,
  type FrontierRequest,
  type Stage,
  type StatusUpdate,
} from '@crawler/core';
import { sampleMessages, waitFor } from '@crawler/core/testing';
import { InProcessBus } from '@crawler/embedded';
import { afterEach, describe, expect, it } from 'vitest';
import { consumedTopics, expectDeadLetters, notingStage, poisonSequence } from './support/poison-records.js';

const codec = new Codec();

/**
 * Issue 10, poison messages, on the embedded bus: undecodable bytes, a record of another schema
 * and a record over its topic's size limit land on crawl.dlq with their code, reason and original
 * bytes, and the partition keeps flowing. The same records on Kafka: poison-messages.int.test.ts.
 */
describe('poison messages on every consumed topic (in-process bus)', () => {
  let bus: InProcessBus;
  const runners: StageRunner<unknown>[] = [];
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((runner) => runner.stop()));
    await bus.close();
  });

  async function startBus(): Promise<DeadLetter[]> {
    bus = new InProcessBus();
    await bus.createTopics(loadCatalog().topics);
    const dead: DeadLetter[] = [];
    const tap = bus.consumer({ groupId: 'dlq-tap', topics: [Topics.dlq], fromBeginning: true });
    await tap.start({ onMessage: async (message) => void dead.push(codec.decode<DeadLetter>(message.value)) });
    return dead;
  }

  async function run<In>(stage: Stage<In>, groupId: string): Promise<void> {
    const runner = new StageRunner({
      stage,
      bus,
      codec,
      producer: new BatchingProducer(bus.producer()),
      groupId,
      logger: silentLogger(),
      concurrency: 1,
      commitIntervalMs: 20,
    });
    runners.push(runner as StageRunner<unknown>);
    await runner.start();
  }

  it.each(consumedTopics().map((consumed) => [consumed.topic, consumed] as const))(
    '%s: each poison record is dead-lettered, the good ones around it processed and committed',
    async (_, consumed) => {
      const dead = await startBus();
      const stage = notingStage(consumed);
      await run(stage, consumed.group);

      const records = poisonSequence(consumed, 'unit');
      await bus.producer().send(consumed.topic, records.sequence);

      await waitFor(() => stage.seen.length === 2 && dead.length === 3, 5000);
      expect(stage.seen).toEqual(records.goodUrls);
      expectDeadLetters(dead, records, consumed);
      await waitFor(
        async () => (await bus.lag(consumed.group, [consumed.topic])).every((partition) => partition.lag === 0),
        5000,
      );
    },
  );

  it('dead-letters the input of an emission too large for its output topic (it can never be produced) and goes on', async () => {
    const dead = await startBus();
    const limit = topicSpec(Topics.status).maxMessageBytes;
    const seen: string[] = [];
    const stage: Stage<FrontierRequest> = {
      name: 'fetcher',
      input: { topic: Topics.frontier, schema: Schemas.FrontierRequest },
      outputs: [Topics.status],
      async handle(input) {
        seen.push(input.url);
        const value: StatusUpdate = {
          ...sampleMessages[Schemas.StatusUpdate],
          url: input.url,
          errorMessage: input.url.endsWith('/huge') ? 'e'.repeat(limit) : null,
        };
        return [{ topic: Topics.status, schema: Schemas.StatusUpdate, key: input.queueKey, value }];
      },
    };
    await run(stage, 'fetcher');
    const request = (url: string) => ({
      key: 'a.test',
      value: codec.encode(Schemas.FrontierRequest, {
        ...sampleMessages[Schemas.FrontierRequest],
        url,
        queueKey: 'a.test',
      }),
    });
    const sent = [request('http://a.test/huge'), request('http://a.test/next')];
    await bus.producer().send(Topics.frontier, sent);

    await waitFor(() => seen.length === 2 && dead.length === 1, 5000);
    expect(dead[0]).toMatchObject({
      errorCode: 'MESSAGE_TOO_LARGE',
      reason: expect.stringMatching(/^crawler\.StatusUpdate of \d+ bytes exceeds crawl\.status max 1048576$/),
      attempts: 1,
    });
    expect(dead[0]!.value.equals(sent[0]!.value)).toBe(true);
    await waitFor(
      async () => (await bus.lag('fetcher', [Topics.frontier])).every((partition) => partition.lag === 0),
      5000,
    );
  });

  it('keeps the first bytes of a record too large for crawl.dlq itself, and says how large it was', async () => {
    const dead = await startBus();
    const consumed = consumedTopics().find((entry) => entry.topic === Topics.fetched)!;
    const stage = notingStage(consumed);
    await run(stage, consumed.group);
    const huge = Buffer.alloc(12 * 1024 * 1024, 0x61);
    await bus.producer().send(Topics.fetched, [{ key: 'a.test', value: huge }]);

    await waitFor(() => dead.length === 1, 5000);
    const letter = dead[0]!;
    expect(letter).toMatchObject({ errorCode: 'INPUT_TOO_LARGE', valueTruncatedFrom: huge.length });
    expect(letter.reason).toBe(
      `${huge.length} bytes exceed crawl.fetched max 8388608 [value cut to its first ${letter.value.length} of ${huge.length} bytes to fit crawl.dlq]`,
    );
    expect(letter.value.length).toBeGreaterThan(10 * 1024 * 1024 - 1024);
    expect(codec.encode(Schemas.DeadLetter, letter).length).toBeLessThanOrEqual(topicSpec(Topics.dlq).maxMessageBytes);
  });
});
