import {
  CrawlerError,
  errorMessage,
  sleep,
  type BusConsumer,
  type ConsumerHandlers,
  type ConsumerOptions,
  type IncomingMessage,
  type Logger,
  type TopicPartition,
  type TopicPartitionOffset,
  ErrorCode,
} from '@crawler/core';
import {
  AssignerProtocol,
  PartitionAssigners,
  type Consumer,
  type EachBatchPayload,
  type IHeaders,
  type Kafka,
  type KafkaMessage,
  type PartitionAssigner,
} from 'kafkajs';
import { toBusError } from './kafka-errors.js';
import { encodeCommitMetadata, encodeMemberIdentity } from './member-identity.js';

export interface KafkaConsumerTuning {
  sessionTimeoutMs: number;
  rebalanceTimeoutMs: number;
}

/** Reads a group's coordinator state (Stable, PreparingRebalance, Empty...). */
export type GroupStateReader = (groupId: string) => Promise<string>;

/** Heartbeat errors after which kafkajs must rejoin the group before fetching again. */
const REJOIN_ERRORS = new Set([
  'REBALANCE_IN_PROGRESS',
  'ILLEGAL_GENERATION',
  'NOT_COORDINATOR_FOR_GROUP',
  'UNKNOWN_MEMBER_ID',
]);
/**
 * A rebalance waits for every member's next heartbeat; one a second keeps rebalances near a second
 * long for one small request per second per member.
 */
const HEARTBEAT_INTERVAL_MS = 1000;
/** How long stop() waits for the remaining members to take the partitions over. */
const HANDOVER_WAIT_MS = 10_000;
/** States in which no member waits for this one any more. */
const SETTLED_STATES = new Set(['Stable', 'Empty', 'Dead']);
/** Longest idle fetch: bounds how late a resume() or stop() is noticed, at two empty fetches a second. */
const MAX_WAIT_MS = 500;
/** Bound on waiting for the first fetch in start(), should kafkajs not fetch at all. */
const FIRST_FETCH_WAIT_MS = 5000;
/**
 * Partitions whose fetched batches are handed to onMessage at once. Kafkajs fetches again only
 * when every batch of the last fetch is done, so this lets other partitions move while one waits.
 */
const PARTITIONS_AT_ONCE = 4;
/** Back-off of rejoining after a crash kafkajs does not restart from. */
const RERUN_BASE_MS = 1000;
const RERUN_MAX_MS = 30_000;

/**
 * One consumer-group member on kafkajs, with offsets committed only by the caller. start()
 * resolves after the first assignment, and without fromBeginning also after the first fetch, which
 * is when kafkajs fixes the log-end position of partitions the group never committed.
 *
 * Rebalance guarantee: kafkajs has no rebalance listener, but every (re)join starts with
 * cluster.findGroupCoordinator on the consumer's own cluster, which the partition-assigner factory
 * receives. We wrap that call, so before this member sends JoinGroup: deliveries stop, every
 * onMessage already called has resolved, and onRevoked(all held partitions) has resolved. Its
 * commits still carry the old generation, which the coordinator accepts while the group prepares
 * the rebalance, so finished work is committed before another member can fetch those partitions
 * (unless this member exceeded the rebalance timeout and was already expelled). Kafka's classic
 * protocol is eager: every rebalance revokes everything, then onAssigned gives the new set.
 * A crash (kafkajs gave up and left the group) calls onRevoked too, but its commits are ignored.
 */
export class KafkaConsumer implements BusConsumer {
  private readonly consumer: Consumer;
  private readonly heartbeatIntervalMs: number;
  private handlers: ConsumerHandlers | null = null;
  private assigned: TopicPartition[] = [];
  private running = false;
  private paused = false;
  private stopping = false;
  /** A heartbeat answered that the group rebalances: stop delivering and let kafkajs rejoin. */
  private rejoin: Error | null = null;
  private pending = 0;
  private idleWaiters: (() => void)[] = [];
  private heartbeat: (() => Promise<void>) | null = null;
  private lastBeat = 0;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private revoking: Promise<void> | null = null;
  private starting: Promise<void> | null = null;
  private stopped: Promise<void> | null = null;
  private firstJoin: { resolve(): void; reject(error: unknown): void } | null = null;
  private rerunning: Promise<void> | null = null;
  private crashes = 0;
  /** Whether kafkajs restarts after the last crash itself. */
  private crashRestarts = false;
  private readonly stopSignal = new AbortController();

  constructor(
    kafka: Kafka,
    private readonly options: ConsumerOptions,
    tuning: KafkaConsumerTuning,
    private readonly groupState: GroupStateReader,
    private readonly log: Logger,
    private readonly scrub: (text: string) => string,
  ) {
    this.heartbeatIntervalMs = Math.min(HEARTBEAT_INTERVAL_MS, Math.floor(tuning.sessionTimeoutMs / 3));
    this.consumer = kafka.consumer({
      groupId: options.groupId,
      sessionTimeout: tuning.sessionTimeoutMs,
      rebalanceTimeout: tuning.rebalanceTimeoutMs,
      heartbeatInterval: this.heartbeatIntervalMs,
      maxWaitTimeInMs: MAX_WAIT_MS,
      allowAutoTopicCreation: false,
      partitionAssigners: [this.revokeBeforeJoin],
    });
  }

  start(handlers: ConsumerHandlers): Promise<void> {
    if (this.starting)
      return Promise.reject(
        new CrawlerError(
          ErrorCode.BUS_CONSUMER_STARTED,
          `consumer of group ${this.options.groupId} was already started`,
        ),
      );
    this.handlers = handlers;
    this.starting = this.join();
    return this.starting;
  }

  async commit(offsets: TopicPartitionOffset[]): Promise<void> {
    const mine = offsets.filter(({ topic, partition }) => this.holds(topic, partition));
    if (mine.length === 0 || !this.running) return;
    try {
      const metadata = encodeCommitMetadata(Date.now());
      await this.consumer.commitOffsets(
        mine.map(({ topic, partition, offset }) => ({ topic, partition, offset: String(offset), metadata })),
      );
    } catch (error) {
      throw toBusError(error, `committing offsets of group ${this.options.groupId}`, this.scrub);
    }
  }

  pause(): void {
    this.paused = true;
    this.applyPause();
  }

  resume(): void {
    this.paused = false;
    if (!this.running) return;
    try {
      this.consumer.resume(this.options.topics.map((topic) => ({ topic })));
    } catch (error) {
      // Only while kafkajs restarts after a crash; the next join starts unpaused anyway.
      this.log.debug({ err: errorMessage(error) }, 'resume not applied');
    }
  }

  stop(): Promise<void> {
    this.stopped ??= this.leave();
    return this.stopped;
  }

  private async join(): Promise<void> {
    const { GROUP_JOIN, CRASH } = this.consumer.events;
    const joined = new Promise<void>((resolve, reject) => (this.firstJoin = { resolve, reject }));
    const fetched = this.firstFetch();
    this.consumer.on(GROUP_JOIN, ({ payload }) => this.assign(payload.memberAssignment));
    this.consumer.on(CRASH, ({ payload }) => void this.crashed(payload.error, payload.restart));
    try {
      await this.consumer.connect();
      await this.consumer.subscribe({
        topics: [...this.options.topics],
        fromBeginning: this.options.fromBeginning ?? false,
      });
      await this.run();
      await joined;
      // Without a committed offset and fromBeginning, kafkajs takes the log end when it first
      // fetches, just after the join; once that fetch is answered nothing produced later is skipped.
      if (!this.options.fromBeginning && this.assigned.length > 0) {
        const timeout = new AbortController();
        await Promise.race([fetched, sleep(FIRST_FETCH_WAIT_MS, timeout.signal)]);
        timeout.abort();
      }
    } catch (error) {
      await this.consumer.disconnect().catch(() => undefined);
      throw toBusError(error, `joining consumer group ${this.options.groupId}`, this.scrub);
    }
    this.heartbeatTimer = setInterval(() => this.beatWhileBusy(), this.heartbeatIntervalMs);
    this.heartbeatTimer.unref();
  }

  private run(): Promise<void> {
    return this.consumer.run({
      autoCommit: false,
      // eachBatch resolves up to the last message onMessage accepted, so a batch cut short by
      // pause, stop or rebalance is fetched again from the first message not delivered.
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: PARTITIONS_AT_ONCE,
      eachBatch: (payload) => this.eachBatch(payload),
    });
  }

  /**
   * kafkajs does not restart after a crash it deems non-retriable ("Failed to find group
   * coordinator" while a restarted broker loads its groups): the member would sit idle for good,
   * its partitions unread. Rejoin with back-off until it works or the consumer is stopped.
   */
  private async rerunAfterCrash(): Promise<void> {
    for (let attempt = 1; !this.stopping; attempt++) {
      await sleep(Math.min(RERUN_BASE_MS * 2 ** (attempt - 1), RERUN_MAX_MS), this.stopSignal.signal);
      if (this.stopping) return;
      const crashes = this.crashes;
      try {
        await this.consumer.connect();
        // run() reports a failed join as another crash, not as an error.
        await this.run();
      } catch (error) {
        this.log.warn(
          { attempt, err: this.scrub(errorMessage(error)) },
          'rejoining after a crash failed; trying again',
        );
        await this.consumer.disconnect().catch(() => undefined);
        continue;
      }
      if (this.crashes === crashes || this.crashRestarts) {
        this.log.info(
          { attempt },
          this.crashes === crashes ? 'consumer rejoined its group after a crash' : 'kafkajs restarts the consumer',
        );
        return;
      }
    }
  }

  private firstFetch(): Promise<void> {
    return new Promise((resolve) => {
      const remove = this.consumer.on(this.consumer.events.REQUEST, ({ payload }) => {
        if (payload.apiName !== 'Fetch') return;
        remove();
        resolve();
      });
    });
  }

  private async leave(): Promise<void> {
    this.stopping = true;
    await this.starting?.catch(() => undefined);
    this.stopSignal.abort();
    await this.rerunning;
    const member = this.running;
    if (member) {
      await this.idle();
      await this.revoke();
    }
    this.running = false;
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    try {
      await this.consumer.disconnect();
    } catch (error) {
      throw toBusError(error, `leaving consumer group ${this.options.groupId}`, this.scrub);
    }
    if (!member) return;
    this.log.info('left consumer group');
    await this.awaitHandover();
  }

  /**
   * Waits until the other members have rejoined without this one, as the embedded bus does before
   * leave() returns: messages produced after stop() then reach their new owner once, instead of
   * first an old owner that has not yet noticed the rebalance and then, from the committed offset,
   * the new one.
   */
  private async awaitHandover(): Promise<void> {
    const deadline = Date.now() + HANDOVER_WAIT_MS;
    try {
      while (!SETTLED_STATES.has(await this.groupState(this.options.groupId))) {
        if (Date.now() > deadline) {
          this.log.info(
            { waitedMs: HANDOVER_WAIT_MS },
            'other members have not rejoined yet; stopping without waiting for them',
          );
          return;
        }
        await sleep(100);
      }
    } catch (error) {
      this.log.debug({ err: this.scrub(errorMessage(error)) }, 'group state unknown; not waiting for the handover');
    }
  }

  private async eachBatch({ batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload): Promise<void> {
    this.heartbeat = heartbeat;
    // Only the next fetch reads the position, so it moves once per batch, to after the last message
    // onMessage accepted; per message, kafkajs' resolveOffset would parse Longs (~0.2 µs) for nothing.
    let delivered: string | null = null;
    try {
      for (const message of batch.messages) {
        if (this.rejoin) throw this.rejoin;
        if (this.stopping || this.paused || this.revoking || !isRunning() || isStale()) return;
        await this.deliver(toIncoming(batch.topic, batch.partition, message));
        delivered = message.offset;
        if (Date.now() - this.lastBeat >= this.heartbeatIntervalMs) await this.beat();
      }
      if (this.rejoin) throw this.rejoin;
    } finally {
      if (delivered !== null) resolveOffset(delivered);
    }
  }

  private async deliver(message: IncomingMessage): Promise<void> {
    this.pending++;
    try {
      await this.handlers!.onMessage(message);
    } catch (error) {
      // Thrown on to kafkajs, which fetches this offset again after its retry backoff.
      this.log.error(
        { topic: message.topic, partition: message.partition, offset: message.offset, err: errorMessage(error) },
        'onMessage failed; the message will be delivered again',
      );
      throw error;
    } finally {
      this.pending--;
      if (this.pending === 0) for (const wake of this.idleWaiters.splice(0)) wake();
    }
  }

  /** Keeps the membership alive while an onMessage call holds the partition (backpressure). */
  private beatWhileBusy(): void {
    if (this.pending > 0 && Date.now() - this.lastBeat >= this.heartbeatIntervalMs) void this.beat();
  }

  private async beat(): Promise<void> {
    if (!this.heartbeat) return;
    this.lastBeat = Date.now();
    try {
      await this.heartbeat();
    } catch (error) {
      const type = (error as { type?: string }).type;
      if (type && REJOIN_ERRORS.has(type)) this.rejoin ??= error as Error;
      else this.log.warn({ err: this.scrub(errorMessage(error)) }, 'heartbeat failed');
    }
  }

  private idle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Waits for onMessage calls in flight, then hands every held partition to onRevoked. */
  private revoke(): Promise<void> {
    this.revoking ??= (async () => {
      await this.idle();
      const revoked = this.assigned;
      if (revoked.length === 0) return;
      try {
        await this.handlers?.onRevoked?.(revoked);
      } catch (error) {
        this.log.warn({ err: errorMessage(error) }, 'onRevoked failed');
      }
      // Cleared after onRevoked so its commits still pass the "held partitions" filter.
      this.assigned = [];
    })().finally(() => (this.revoking = null));
    return this.revoking;
  }

  /** The partition-assigner factory is where kafkajs hands us the cluster its joins go through. */
  private readonly revokeBeforeJoin: PartitionAssigner = (config) => {
    const { cluster } = config;
    const findGroupCoordinator = cluster.findGroupCoordinator.bind(cluster);
    cluster.findGroupCoordinator = async (group) => {
      if (this.assigned.length > 0) {
        this.log.info({ partitions: this.assigned.length }, 'rebalance: revoking partitions before rejoining');
        await this.revoke();
      }
      return findGroupCoordinator(group);
    };
    const roundRobin = PartitionAssigners.roundRobin(config);
    // Round robin ignores userData; ours tells group descriptions which process the member is.
    return {
      ...roundRobin,
      protocol: ({ topics }) => ({
        name: roundRobin.name,
        metadata: AssignerProtocol.MemberMetadata.encode({
          version: roundRobin.version,
          topics,
          userData: encodeMemberIdentity(),
        }),
      }),
    };
  };

  private assign(memberAssignment: Record<string, number[]>): void {
    if (!this.stopping) this.running = true;
    this.rejoin = null;
    this.assigned = Object.entries(memberAssignment).flatMap(([topic, partitions]) =>
      partitions.map((partition) => ({ topic, partition })),
    );
    // A crash restart builds a fresh kafkajs group state, which forgets the pause.
    this.applyPause();
    this.log.info(
      { partitions: this.assigned.map(({ topic, partition }) => `${topic}/${partition}`) },
      'joined consumer group',
    );
    if (!this.stopping) this.handlers?.onAssigned?.(this.assigned);
    this.firstJoin?.resolve();
  }

  private async crashed(error: Error, restart: boolean): Promise<void> {
    this.crashes++;
    this.crashRestarts = restart;
    const err = this.scrub(errorMessage(error));
    if (!this.running) {
      this.firstJoin?.reject(error);
      return;
    }
    this.log.error(
      { restart, err },
      restart
        ? 'consumer crashed; kafkajs restarts it and the group rebalances'
        : 'consumer crashed and will not restart',
    );
    // The group was left on the crash: the partitions are gone, so only onRevoked's bookkeeping matters.
    const lost = this.assigned;
    this.assigned = [];
    if (lost.length > 0) await this.handlers?.onRevoked?.(lost)?.catch(() => undefined);
    if (!restart && !this.stopping) this.rerunning ??= this.rerunAfterCrash().finally(() => (this.rerunning = null));
  }

  private applyPause(): void {
    if (!this.paused || !this.starting) return;
    try {
      this.consumer.pause(this.options.topics.map((topic) => ({ topic })));
    } catch (error) {
      // kafkajs refuses before run() and during a crash restart; assign() applies it on the next join.
      this.log.debug({ err: errorMessage(error) }, 'pause not applied yet');
    }
  }

  private holds(topic: string, partition: number): boolean {
    return this.assigned.some((tp) => tp.topic === topic && tp.partition === partition);
  }
}

function toIncoming(topic: string, partition: number, message: KafkaMessage): IncomingMessage {
  return {
    topic,
    partition,
    offset: Number(message.offset),
    key: message.key ?? null,
    value: message.value ?? Buffer.alloc(0),
    headers: toHeaders(message.headers),
    timestamp: Number(message.timestamp),
  };
}

/** Kafka allows a header name more than once; the port keeps the last value. */
function toHeaders(headers: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const last = Array.isArray(value) ? value[value.length - 1] : value;
    if (last !== undefined) out[name] = last.toString();
  }
  return out;
}
