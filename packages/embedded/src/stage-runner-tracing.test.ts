import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import {
  BatchingProducer,
  Codec,
  loadCatalog,
  Schemas,
  setTracingOn,
  silentLogger,
  StageRunner,
  startCallSpan,
  TRACE_HEADER,
  TRACEPARENT_HEADER,
  Topics,
  type FrontierRequest,
  type IncomingMessage,
  type Stage,
  type StatusUpdate,
} from '@crawler/core';
import { sampleMessages, waitFor } from '@crawler/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { InProcessBus } from './in-process-bus.js';

const codec = new Codec();
const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = '00f067aa0ba902b7';
const request: FrontierRequest = { ...sampleMessages[Schemas.FrontierRequest], traceId: TRACE };

/** A stage that makes one outgoing call (an HTTP hop, say) and reports the URL fetched. */
const stage: Stage<FrontierRequest> = {
  name: 'fetcher',
  input: { topic: Topics.frontier, schema: Schemas.FrontierRequest },
  outputs: [Topics.status],
  async handle(input) {
    startCallSpan('GET', { 'url.full': input.url }).end();
    const status: StatusUpdate = { ...sampleMessages[Schemas.StatusUpdate], url: input.url, outcome: 'not_modified' };
    return [{ topic: Topics.status, schema: Schemas.StatusUpdate, key: input.queueKey, value: status }];
  },
};

/** Runs the stage on one frontier message carrying a traceparent; returns what it produced on crawl.status. */
async function runOnce(): Promise<IncomingMessage> {
  const bus = new InProcessBus();
  await bus.createTopics(loadCatalog().topics);
  const runner = new StageRunner({
    stage,
    bus,
    codec,
    producer: new BatchingProducer(bus.producer()),
    groupId: 'test',
    logger: silentLogger(),
    concurrency: 1,
  });
  const produced: IncomingMessage[] = [];
  const tap = bus.consumer({ groupId: 'tap', topics: [Topics.status], fromBeginning: true });
  await tap.start({ onMessage: async (message) => void produced.push(message) });
  await runner.start();
  await bus.producer().send(Topics.frontier, [
    {
      key: request.queueKey,
      value: codec.encode(Schemas.FrontierRequest, request),
      headers: { [TRACEPARENT_HEADER]: `00-${TRACE}-${PARENT}-01`, [TRACE_HEADER]: TRACE },
    },
  ]);
  await waitFor(() => produced.length === 1);
  await runner.stop();
  await tap.stop();
  return produced[0]!;
}

describe('trace context through a stage', () => {
  afterEach(() => {
    setTracingOn(false);
    trace.disable();
    context.disable();
  });

  it('with tracing off, passes the traceparent it was handed on unchanged, beside the trace id', async () => {
    const out = await runOnce();
    expect(out.headers[TRACEPARENT_HEADER]).toBe(`00-${TRACE}-${PARENT}-01`);
    expect(out.headers[TRACE_HEADER]).toBe(TRACE);
  });

  it('with tracing on, records a span per record as a child of the header, and its calls as children of it', async () => {
    const exporter = new InMemorySpanExporter();
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
    trace.setGlobalTracerProvider(provider);
    setTracingOn(true); // what startTracing does once it installed the SDK
    const out = await runOnce();
    await provider.forceFlush(); // the processor exports each span asynchronously
    const spans = exporter.getFinishedSpans();
    const record = spans.find((span) => span.name === 'fetcher')!;
    const hop = spans.find((span) => span.name === 'GET')!;
    expect(record.spanContext().traceId).toBe(TRACE);
    expect(record.parentSpanContext?.spanId).toBe(PARENT);
    expect(hop.parentSpanContext?.spanId).toBe(record.spanContext().spanId);
    expect(record.attributes).toMatchObject({
      'url.full': request.url,
      'crawler.outcome': 'not_modified',
      'crawler.emitted.crawl.status': 1,
      'messaging.destination.name': Topics.frontier,
    });
    // What the stage produced names its span as the parent of the next stage's.
    expect(out.headers[TRACEPARENT_HEADER]).toBe(`00-${TRACE}-${record.spanContext().spanId}-01`);
  });
});
