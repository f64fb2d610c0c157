import { CrawlerError, type BusProducer, type Logger, type OutgoingMessage } from '@crawler/core';
import { CompressionTypes, Partitioners, type Kafka, type Producer } from 'kafkajs';
import { toBusError } from './kafka-errors.js';
import type { KafkaConfig } from './kafka-settings.js';

/**
 * Keyed produce with acks from every in-sync replica. Kafkajs' DefaultPartitioner in 2.x is the
 * Java client's murmur2 one, so a key lands where partitionForKey (and the embedded bus) puts it.
 */
export class KafkaProducer implements BusProducer {
  private readonly producer: Producer;
  private readonly compression: CompressionTypes;
  private connecting: Promise<void> | null = null;
  private closed = false;

  constructor(
    kafka: Kafka,
    config: KafkaConfig,
    private readonly log: Logger,
    private readonly scrub: (text: string) => string,
  ) {
    this.compression = config.compression === 'gzip' ? CompressionTypes.GZIP : CompressionTypes.None;
    this.producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner, allowAutoTopicCreation: false });
  }

  async send(topic: string, messages: OutgoingMessage[]): Promise<void> {
    if (this.closed) throw new CrawlerError('BUS_CLOSED', 'the producer is closed', { retriable: true });
    if (messages.length === 0) return;
    try {
      await this.connect();
      await this.producer.send({
        topic,
        acks: -1,
        compression: this.compression,
        messages: messages.map((message) => ({ key: message.key, value: message.value, headers: message.headers })),
      });
    } catch (error) {
      const failure = toBusError(error, `producing ${messages.length} message(s) to ${topic}`, this.scrub);
      this.log.warn({ topic, count: messages.length, code: failure.code, err: failure.message }, 'produce failed');
      throw failure;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (!this.connecting) return;
    await this.connecting.catch(() => undefined);
    await this.producer.disconnect();
  }

  /** Connects once; a failed attempt is forgotten so the next send tries again. */
  private connect(): Promise<void> {
    this.connecting ??= this.producer.connect().catch((error: unknown) => {
      this.connecting = null;
      throw error;
    });
    return this.connecting;
  }
}
