import {
  BackendError,
  BatchingProducer,
  Codec,
  CrawlerError,
  loadCatalog,
  Schemas,
  silentLogger,
  StageRunner,
  Topics,
} from '@crawler/core';
import type { DeadLetter, FrontierRequest, Stage, StatusUpdate } from '@crawler/core';
import { sampleMessages, waitFor } from '@crawler/core/testing';
import { InProcessBus } from '@crawler/embedded';
import { afterEach, describe, expect, it } from 'vitest';

const codec = new Codec();
const request = codec.encode(Schemas.FrontierRequest, sampleMessages[Schemas.FrontierRequest]);

/** A stage that fails with `failure()` while it returns an error, then answers with a status. */
function flakyStage(failure: () => Error | null): Stage<FrontierRequest> & { calls: number } {
  const stage = {
    calls: 0,
    name: 'outage-test',
    input: { topic: Topics.frontier, schema: Schemas.FrontierRequest },
    outputs: [Topics.status],
    async handle(input: FrontierRequest) {
      stage.calls++;
      const error = failure();
      if (error) throw error;
      const value: StatusUpdate = { ...sampleMessages[Schemas.StatusUpdate], url: input.url, outcome: 'ok' };
      return [{ topic: Topics.status, schema: Schemas.StatusUpdate, key: input.queueKey, value }];
    },
  } satisfies Stage<FrontierRequest> & { calls: number };
  return stage;
}

/**
 * Why the runner waits out an outage (docs/RELIABILITY.md): with Elasticsearch stopped for 30 s,
 * the scheduler dead-lettered 24 statuses after 3 attempts in about a second each.
 */
describe('StageRunner during an outage', () => {
  let bus: InProcessBus;
  let runner: StageRunner<FrontierRequest> | null = null;
  afterEach(async () => {
    await runner?.stop();
    await bus.close();
  });

  async function run(stage: Stage<FrontierRequest>, outageRetryMs?: number) {
    bus = new InProcessBus();
    await bus.createTopics(loadCatalog().topics);
    const outputs = { statuses: [] as StatusUpdate[], dead: [] as DeadLetter[] };
    const tap = bus.consumer({ groupId: 'tap', topics: [Topics.status, Topics.dlq], fromBeginning: true });
    await tap.start({
      onMessage: async (message) =>
        void (message.topic === Topics.status
          ? outputs.statuses.push(codec.decode(message.value))
          : outputs.dead.push(codec.decode(message.value))),
    });
    runner = new StageRunner({
      stage,
      bus,
      codec,
      producer: new BatchingProducer(bus.producer()),
      groupId: 'g',
      logger: silentLogger(),
      concurrency: 2,
      maxAttempts: 3,
      retryBaseMs: 5,
      commitIntervalMs: 20,
      outageRetryMs,
    });
    await runner.start();
    await bus.producer().send(Topics.frontier, [{ key: 'news.example.test', value: request }]);
    return outputs;
  }

  it('retries a message past maxAttempts while its store is unavailable, and finishes it when the store is back', async () => {
    let down = true;
    setTimeout(() => (down = false), 300);
    const stage = flakyStage(() =>
      down ? new BackendError('elasticsearch update failed: cluster unreachable (connect ECONNREFUSED)') : null,
    );
    const outputs = await run(stage);
    await waitFor(() => outputs.statuses.length === 1, 5000);
    expect(stage.calls).toBeGreaterThan(3);
    expect(outputs.dead).toEqual([]);
  });

  it('dead-letters it once the outage lasts longer than outageRetryMs', async () => {
    const stage = flakyStage(() => new BackendError('redis putIfAbsent failed: connect ECONNREFUSED'));
    const outputs = await run(stage, 150);
    await waitFor(() => outputs.dead.length === 1, 5000);
    expect(outputs.dead[0]).toMatchObject({ errorCode: 'BACKEND_UNAVAILABLE' });
    expect(outputs.dead[0]!.attempts).toBeGreaterThan(3);
  });

  it('still gives a failing message up after maxAttempts when the fault is not an outage', async () => {
    const stage = flakyStage(() => new CrawlerError('DEDUP_JUDGE_UNAVAILABLE', 'classifier answered 500'));
    const outputs = await run(stage);
    await waitFor(() => outputs.dead.length === 1, 5000);
    expect(outputs.dead[0]).toMatchObject({ errorCode: 'DEDUP_JUDGE_UNAVAILABLE', attempts: 3 });
  });
});
