import { randomUUID } from 'node:crypto';
import { errorMessage, type Logger } from '@crawler/core';
import type { Admin, Consumer, Kafka } from 'kafkajs';
import { createKafkaClient, secretsOf } from './kafka-client.js';
import { toBusError } from './kafka-errors.js';
import { createScrubber } from './kafka-log.js';
import type { KafkaConfig } from './kafka-settings.js';
import { registryFramingOf, type RegistryFraming } from './registry-framing.js';

export interface RecentRecord {
  partition: number;
  offset: number;
  timestamp: number;
  value: Buffer;
}

export interface Following {
  /** Resolves once every record produced before the call was read (or the time ran out). */
  caughtUp: Promise<void>;
  stop(): Promise<void>;
}

/** How long following waits for the records produced before it started. */
const CATCH_UP_MS = 15_000;

/**
 * What was produced to a topic lately, for operators' tools: how many records since a time
 * (offsets by timestamp, no reading at all), and the records themselves from that time on. Reads
 * under a throwaway group that commits nothing, so no group is disturbed and nothing is left behind.
 */
export class RecentRecords {
  private readonly kafka: Kafka;
  private readonly admin: Admin;
  private readonly scrub: (text: string) => string;
  private connected: Promise<void> | null = null;
  private readonly framing: RegistryFraming | null;

  constructor(
    config: KafkaConfig,
    private readonly logger: Logger,
  ) {
    this.kafka = createKafkaClient(config, logger, `${config.clientId}-ops`);
    this.admin = this.kafka.admin();
    const scrubber = createScrubber(secretsOf(config));
    this.scrub = (text) => scrubber(text) as string;
    this.framing = registryFramingOf(config, logger);
  }

  /** Records produced to the topic at or after `since` (epoch ms). */
  async countSince(topic: string, since: number): Promise<number> {
    try {
      const { starts, ends } = await this.positions(topic, since, Number.MAX_SAFE_INTEGER);
      return [...ends].reduce((sum, [partition, end]) => sum + end - (starts.get(partition) ?? end), 0);
    } catch (error) {
      throw toBusError(error, `counting recent records of ${topic}`, this.scrub);
    }
  }

  /** Reads records produced at or after `since` (at most the newest `maxPerPartition` of each partition), then keeps following. */
  async follow(
    topic: string,
    since: number,
    maxPerPartition: number,
    onRecord: (record: RecentRecord) => void,
  ): Promise<Following> {
    let consumer: Consumer | null = null;
    try {
      const { starts, ends } = await this.positions(topic, since, maxPerPartition);
      const behind = new Set(
        [...starts].filter(([partition, start]) => start < (ends.get(partition) ?? 0)).map(([partition]) => partition),
      );
      let caughtUp!: () => void;
      const done = new Promise<void>((resolve) => (caughtUp = resolve));
      if (behind.size === 0) caughtUp();
      consumer = this.kafka.consumer({
        groupId: `crawler-ops-${randomUUID()}`,
        allowAutoTopicCreation: false,
        maxWaitTimeInMs: 500,
      });
      await consumer.connect();
      await consumer.subscribe({ topics: [topic], fromBeginning: false });
      await consumer.run({
        autoCommit: false,
        eachMessage: async ({ partition, message }) => {
          const offset = Number(message.offset);
          onRecord({
            partition,
            offset,
            timestamp: Number(message.timestamp),
            value: this.framing
              ? await this.framing.fromWire(message.value ?? Buffer.alloc(0))
              : (message.value ?? Buffer.alloc(0)),
          });
          if (behind.has(partition) && offset >= ends.get(partition)! - 1) {
            behind.delete(partition);
            if (behind.size === 0) caughtUp();
          }
        },
      });
      for (const [partition, offset] of starts) consumer.seek({ topic, partition, offset: String(offset) });
      const timeout = new Promise<void>((resolve) => setTimeout(resolve, CATCH_UP_MS).unref());
      const running = consumer;
      return { caughtUp: Promise.race([done, timeout]), stop: () => running.disconnect() };
    } catch (error) {
      await consumer
        ?.disconnect()
        .catch((cause: unknown) => this.logger.debug({ err: errorMessage(cause) }, 'disconnect after a failed follow'));
      throw toBusError(error, `reading recent records of ${topic}`, this.scrub);
    }
  }

  async close(): Promise<void> {
    if (this.connected) await this.admin.disconnect();
    this.connected = null;
  }

  /** Per partition: the first offset at or after `since` (no older than the newest `limit`), and the log end. */
  private async positions(
    topic: string,
    since: number,
    limit: number,
  ): Promise<{ starts: Map<number, number>; ends: Map<number, number> }> {
    this.connected ??= this.admin.connect();
    await this.connected;
    const [byTime, bounds] = await Promise.all([
      this.admin.fetchTopicOffsetsByTimestamp(topic, since),
      this.admin.fetchTopicOffsets(topic),
    ]);
    const ends = new Map(bounds.map(({ partition, high }) => [partition, Number(high)]));
    const lows = new Map(bounds.map(({ partition, low }) => [partition, Number(low)]));
    const starts = new Map(
      byTime.map(({ partition, offset }) => [
        partition,
        Math.max(Number(offset), (ends.get(partition) ?? 0) - limit, lows.get(partition) ?? 0),
      ]),
    );
    return { starts, ends };
  }
}
