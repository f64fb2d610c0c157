import { ErrorCode } from '../error-codes.js';
import { randomUUID } from 'node:crypto';
import { context } from '@opentelemetry/api';
import { topicSpec, Topics, type TopicName } from '../catalog.js';
import type { Codec } from '../codec/codec.js';
import {
  CrawlerError,
  errorCode,
  errorMessage,
  InputTooLargeError,
  isRetriable,
  MessageTooLargeError,
} from '../errors.js';
import type { Logger } from '../log/logger.js';
import type { Bus, BusConsumer, BusProducer, IncomingMessage, OutgoingMessage, TopicPartition } from '../ports/bus.js';
import { brokerName } from '../ports/prefixed-bus.js';
import { encodeDeadLetter } from './dead-letter.js';
import { KeySequencer } from './key-sequencer.js';
import { OffsetTracker } from './offset-tracker.js';
import { failSpan, traceRecord, type RecordTrace } from '../tracing/trace-context.js';
import { Semaphore } from './semaphore.js';
import { outcomeAttributes } from './span-attributes.js';
import { backoffMs, sleep } from './sleep.js';
import type { Emission, Stage } from './stage.js';

export const TRACE_HEADER = 'trace-id';
/** The code of BackendError: a store or the bus did not answer. */
const OUTAGE_CODE = ErrorCode.BACKEND_UNAVAILABLE;

/** Metrics hooks; what is produced is counted by the producer itself (instrumentProducer). */
export interface StageObserver {
  consumed?(topic: string): void;
  processed?(stage: string, durationMs: number, result: 'ok' | 'dead_letter'): void;
  retried?(stage: string, code: string): void;
}

export interface StageRunnerOptions<In> {
  stage: Stage<In>;
  bus: Bus;
  codec: Codec;
  producer: BusProducer;
  groupId: string;
  logger: Logger;
  /** Messages being processed at once; more are not accepted (backpressure to the bus). */
  concurrency: number;
  /** Processing attempts for retriable errors before the message is dead-lettered. */
  maxAttempts?: number;
  /**
   * How long a message is retried, past maxAttempts, while a store or the bus is unavailable
   * (BACKEND_UNAVAILABLE; default 10 min): an outage is no fault of the message, so it waits
   * rather than being dead-lettered. Waiting messages hold their slots, which holds the consumer back.
   */
  outageRetryMs?: number;
  retryBaseMs?: number;
  commitIntervalMs?: number;
  /** How long stop() waits for in-flight work before handing it back uncommitted. */
  drainTimeoutMs?: number;
  /** How long a rebalance waits for in-flight work of the partitions leaving, before they move. */
  revokeDrainMs?: number;
  fromBeginning?: boolean;
  observer?: StageObserver;
  /** Partitions this member got (after every rebalance). */
  onAssigned?(partitions: TopicPartition[]): void;
  /** Partitions leaving this member, after their in-flight work finished or was handed back and was committed. */
  onRevoked?(partitions: TopicPartition[]): Promise<void>;
}

/**
 * Runs one stage as a consumer-group member: decode, handle (bounded concurrency, bounded retries),
 * produce and await acks, then mark the offset finished. Commits the lowest contiguous finished
 * offset per partition. Undecodable or unprocessable messages go to crawl.dlq with their bytes.
 */
export class StageRunner<In> {
  private readonly tracker = new OffsetTracker();
  private readonly sequencer = new KeySequencer();
  private readonly slots: Semaphore;
  private readonly inFlight = new Map<Promise<void>, string>();
  /** Partitions being handed over: messages of theirs still waiting for a slot are not begun. */
  private readonly revoking = new Set<string>();
  private consumer: BusConsumer | null = null;
  private commitTimer: NodeJS.Timeout | null = null;
  private stopping = false;
  private readonly log: Logger;
  private processedCount = 0;

  constructor(private readonly options: StageRunnerOptions<In>) {
    this.slots = new Semaphore(options.concurrency);
    this.log = options.logger.child({ component: 'stage-runner', stage: options.stage.name });
    for (const topic of options.stage.outputs) topicSpec(topic);
  }

  get processed(): number {
    return this.processedCount;
  }

  get busy(): number {
    return this.slots.inUse();
  }

  async start(): Promise<void> {
    const { stage, bus } = this.options;
    this.consumer = bus.consumer({
      groupId: this.options.groupId,
      topics: [stage.input.topic],
      fromBeginning: this.options.fromBeginning ?? true,
      clientId: stage.name,
    });
    await this.consumer.start({
      onMessage: (message) => this.accept(message),
      onAssigned: (partitions) => this.options.onAssigned?.(partitions),
      onRevoked: async (partitions) => {
        // Finishing what is in flight before the partitions move spares the next owner redoing it.
        const leaving = partitions.map((tp) => `${tp.partition}:${tp.topic}`);
        for (const tp of leaving) this.revoking.add(tp);
        const work = [...this.inFlight].filter(([, tp]) => this.revoking.has(tp)).map(([promise]) => promise);
        if (work.length > 0) await this.waitAtMost(Promise.allSettled(work), this.options.revokeDrainMs ?? 10_000);
        await this.commit();
        this.tracker.drop(partitions);
        for (const tp of leaving) this.revoking.delete(tp);
        await this.options.onRevoked?.(partitions);
      },
    });
    this.commitTimer = setInterval(() => void this.commit(), this.options.commitIntervalMs ?? 1000);
    this.commitTimer.unref();
  }

  /** Stops taking messages, lets in-flight work finish (or hands it back), commits, leaves the group. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.consumer?.pause();
    this.slots.close();
    if (
      !(await this.waitAtMost(Promise.allSettled([...this.inFlight.keys()]), this.options.drainTimeoutMs ?? 10_000))
    ) {
      this.log.warn(
        { inFlight: this.inFlight.size },
        'drain timed out; unfinished messages stay uncommitted and will be redelivered',
      );
    }
    if (this.commitTimer) clearInterval(this.commitTimer);
    await this.commit();
    await this.consumer?.stop();
  }

  /** True if the work finished within the time, false if the time ran out first. */
  private async waitAtMost(work: Promise<unknown>, ms: number): Promise<boolean> {
    const cancelTimeout = new AbortController();
    const timeout = sleep(ms, cancelTimeout.signal).then(() => 'timeout' as const);
    const result = await Promise.race([work.then(() => 'done' as const), timeout]);
    cancelTimeout.abort();
    return result === 'done';
  }

  private async accept(message: IncomingMessage): Promise<void> {
    this.options.observer?.consumed?.(brokerName(this.options.bus, message.topic));
    if (!(await this.slots.acquire())) return; // stopping: not begun, so never committed: redelivered later
    const partitionKey = `${message.partition}:${message.topic}`;
    if (this.revoking.has(partitionKey)) {
      this.slots.release(); // its partition is moving: the next owner gets it from the committed offset
      return;
    }
    this.tracker.begin(message.topic, message.partition, message.offset);
    const work = this.process(message)
      .catch((error: unknown) =>
        this.log.error(
          { offset: message.offset, err: errorMessage(error) },
          'message left unfinished; it will be redelivered',
        ),
      )
      .finally(() => {
        this.slots.release();
        this.inFlight.delete(work);
      });
    this.inFlight.set(work, partitionKey);
  }

  /** One span per message and stage, a child of the context its headers carry; what the stage produces carries it on. */
  private async process(message: IncomingMessage): Promise<void> {
    const traced = traceRecord(this.options.stage.name, message.headers, {
      'messaging.destination.name': brokerName(this.options.bus, message.topic),
      'messaging.destination.partition.id': String(message.partition),
      'messaging.kafka.offset': message.offset,
    });
    try {
      await this.processIn(message, traced);
    } finally {
      traced.span.end();
    }
  }

  private async processIn(message: IncomingMessage, traced: RecordTrace): Promise<void> {
    const { span } = traced;
    const { stage, codec } = this.options;
    const started = performance.now();
    let input: In;
    try {
      const limit = topicSpec(stage.input.topic).maxMessageBytes;
      if (message.value.length > limit)
        throw new InputTooLargeError(`${message.value.length} bytes exceed ${stage.input.topic} max ${limit}`);
      input = codec.decode<In>(message.value, stage.input.schema);
    } catch (error) {
      failSpan(span, error);
      await this.deadLetter(message, error, 1, [], traced);
      return this.finish(message, started, 'dead_letter', undefined, message.headers[TRACE_HEADER]);
    }
    const traceId = message.headers[TRACE_HEADER] ?? (input as { traceId?: string }).traceId ?? randomUUID();
    await this.sequencer.run(stage.orderKey?.(input) ?? null, () =>
      this.handleAndProduce(message, input, traced, started, traceId),
    );
  }

  /** Handles the input (retrying what is retriable), then produces what it emits and marks the offset finished. */
  private async handleAndProduce(
    message: IncomingMessage,
    input: In,
    traced: RecordTrace,
    started: number,
    traceId: string,
  ): Promise<void> {
    const { span } = traced;
    const { stage } = this.options;
    // Every line about this message carries its trace id, so one URL can be followed through the loop.
    const log = this.log.child({ traceId });
    const maxAttempts = this.options.maxAttempts ?? 3;
    let emissions: Emission[] | null = null;
    for (let attempt = 1; emissions === null; attempt++) {
      try {
        // Spans the stage opens (an HTTP hop, a store call) are children of this one.
        emissions = await context.with(traced.context, () => stage.handle(input, { message, traceId, log }));
      } catch (error) {
        // Hand back: redelivered after a restart, or to the partition's next owner.
        if ((this.stopping || this.revoking.has(`${message.partition}:${message.topic}`)) && isRetriable(error)) return;
        if (!isRetriable(error) || (attempt >= maxAttempts && !this.waitsOutOutage(error, started))) {
          failSpan(span, error);
          await this.deadLetter(message, error, attempt, safeGiveUp(stage, input, error), traced, traceId);
          return this.finish(message, started, 'dead_letter', input, traceId);
        }
        this.options.observer?.retried?.(stage.name, errorCode(error));
        log.warn(
          {
            topic: message.topic,
            partition: message.partition,
            offset: message.offset,
            attempt,
            err: errorMessage(error),
          },
          'processing failed, retrying',
        );
        await sleep(backoffMs(attempt, this.options.retryBaseMs ?? 200, 10_000));
      }
    }
    if (span.isRecording()) span.setAttributes(outcomeAttributes(input, emissions));
    for (let attempt = 1; ; attempt++) {
      try {
        await this.produce(emissions, traceId, traced);
        return this.finish(message, started, 'ok', input, traceId);
      } catch (error) {
        if (!isRetriable(error)) {
          failSpan(span, error);
          await this.deadLetter(message, error, attempt, safeGiveUp(stage, input, error), traced, traceId);
          return this.finish(message, started, 'dead_letter', input, traceId);
        }
        if (this.stopping) return; // not committed: redelivered after a restart
        log.warn({ topic: message.topic, attempt, err: errorMessage(error) }, 'producing results failed, retrying');
        await sleep(backoffMs(attempt, this.options.retryBaseMs ?? 200, 30_000));
      }
    }
  }

  private waitsOutOutage(error: unknown, started: number): boolean {
    return errorCode(error) === OUTAGE_CODE && performance.now() - started < (this.options.outageRetryMs ?? 600_000);
  }

  private finish(
    message: IncomingMessage,
    started: number,
    result: 'ok' | 'dead_letter',
    input?: In,
    traceId?: string,
  ): void {
    this.processedCount++;
    this.tracker.finish(message.topic, message.partition, message.offset);
    const durationMs = performance.now() - started;
    this.options.observer?.processed?.(this.options.stage.name, durationMs, result);
    // One line per message and stage at debug level: the path of a trace id through the loop.
    if (this.log.isLevelEnabled('debug')) {
      const { url, sourceUrl } = (input ?? {}) as { url?: string; sourceUrl?: string };
      this.log.debug(
        {
          traceId,
          url: url ?? sourceUrl,
          topic: message.topic,
          partition: message.partition,
          offset: message.offset,
          result,
          durationMs: Math.round(durationMs),
        },
        'message handled',
      );
    }
  }

  /** Encodes and sends every emission; resolves once all are acknowledged. */
  private async produce(emissions: Emission[], traceId: string, traced: RecordTrace): Promise<void> {
    if (emissions.length === 0) return;
    const headers = { ...traced.headers, [TRACE_HEADER]: traceId };
    const byTopic = new Map<TopicName, OutgoingMessage[]>();
    for (const emission of emissions) {
      if (!this.options.stage.outputs.includes(emission.topic)) {
        throw new CrawlerError(
          ErrorCode.STAGE_UNDECLARED_OUTPUT,
          `stage ${this.options.stage.name} emitted to undeclared topic ${emission.topic}`,
        );
      }
      const value = this.options.codec.encode(emission.schema, emission.value);
      const limit = topicSpec(emission.topic).maxMessageBytes;
      if (value.length > limit)
        throw new MessageTooLargeError(
          `${emission.schema} of ${value.length} bytes exceeds ${emission.topic} max ${limit}`,
        );
      let list = byTopic.get(emission.topic);
      if (!list) byTopic.set(emission.topic, (list = []));
      list.push({ key: emission.key, value, headers });
    }
    await Promise.all(
      [...byTopic].map(async ([topic, messages]) => {
        await this.options.producer.send(topic, messages);
      }),
    );
  }

  private async deadLetter(
    message: IncomingMessage,
    error: unknown,
    attempts: number,
    extra: Emission[],
    traced: RecordTrace,
    traceId?: string,
  ): Promise<void> {
    const { stage, codec, producer } = this.options;
    this.log.warn(
      {
        traceId,
        topic: message.topic,
        partition: message.partition,
        offset: message.offset,
        code: errorCode(error),
        err: errorMessage(error),
      },
      'dead-lettering message',
    );
    // A dead letter names its topic and group as the broker does: it is read beside the broker's own tools.
    const value = encodeDeadLetter(codec, { ...message, topic: brokerName(this.options.bus, message.topic) }, error, {
      service: stage.name,
      consumerGroup: brokerName(this.options.bus, this.options.groupId),
      attempts,
      failedAt: Date.now(),
    });
    for (let attempt = 1; ; attempt++) {
      try {
        await producer.send(Topics.dlq, [{ key: message.key?.toString('utf8') ?? null, value }]);
        if (extra.length > 0) await this.produce(extra, traceId ?? randomUUID(), traced);
        return;
      } catch (sendError) {
        if (this.stopping) throw sendError;
        this.log.error({ attempt, err: errorMessage(sendError) }, 'cannot write to the dead-letter topic; retrying');
        await sleep(backoffMs(attempt, 500, 30_000));
      }
    }
  }

  /** Commits what finished now, without waiting for the interval. */
  async commit(): Promise<void> {
    const offsets = this.tracker.pending();
    if (offsets.length === 0 || !this.consumer) return;
    try {
      await this.consumer.commit(offsets);
      this.tracker.markCommitted(offsets);
    } catch (error) {
      this.log.warn({ err: errorMessage(error) }, 'offset commit failed; will retry');
    }
  }
}

function safeGiveUp<In>(stage: Stage<In>, input: In, error: unknown): Emission[] {
  try {
    return stage.onGiveUp?.(input, error) ?? [];
  } catch {
    return [];
  }
}
