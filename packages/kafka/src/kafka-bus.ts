import type {
  Bus,
  BusConsumer,
  BusProducer,
  ConsumerHandlers,
  ConsumerOptions,
  GroupDescription,
  Logger,
  PartitionLag,
  TopicConfig,
} from '@crawler/core';
import type { Kafka } from 'kafkajs';
import { KafkaTopicAdmin } from './kafka-admin.js';
import { createKafkaClient, secretsOf } from './kafka-client.js';
import { KafkaConsumer } from './kafka-consumer.js';
import { createScrubber } from './kafka-log.js';
import { KafkaProducer } from './kafka-producer.js';
import { checkKafkaConfig, type KafkaConfig } from './kafka-settings.js';
import { registryFramingOf, type RegistryFraming, type TopicSchema } from './registry-framing.js';

/** The Bus port on Kafka, plus what only Kafka has: a schema registry beside it. */
export interface KafkaBusPort extends Bus {
  /** Registers the topics' value schemas when SCHEMA_REGISTRY_URL is set (refused: SCHEMA_INCOMPATIBLE); else nothing. */
  registerSchemas(topics: readonly TopicSchema[]): Promise<void>;
}

/** The Bus port on a Kafka cluster. Nothing connects until a method needs the cluster. */
export function createKafkaBus(config: KafkaConfig, logger: Logger): KafkaBusPort {
  return new KafkaBus(checkKafkaConfig(config), logger);
}

class KafkaBus implements KafkaBusPort {
  private readonly kafka: Kafka;
  private readonly admin: KafkaTopicAdmin;
  private readonly producers = new Set<KafkaProducer>();
  private readonly consumers = new Set<KafkaConsumer>();
  private readonly scrub: (text: string) => string;
  private readonly log: Logger;
  private readonly framing: RegistryFraming | null;

  constructor(
    private readonly config: KafkaConfig,
    logger: Logger,
  ) {
    this.log = logger.child({ component: 'kafka-bus' });
    const scrubber = createScrubber(secretsOf(config));
    this.scrub = (text) => scrubber(text) as string;
    this.kafka = createKafkaClient(config, this.log);
    this.admin = new KafkaTopicAdmin(
      this.kafka,
      config.replicationFactor,
      this.log.child({ component: 'kafka-admin' }),
      this.scrub,
    );
    this.framing = registryFramingOf(config, this.log);
  }

  createTopics(topics: TopicConfig[]): Promise<void> {
    return this.admin.createTopics(topics);
  }

  async registerSchemas(topics: readonly TopicSchema[]): Promise<void> {
    await this.framing?.register(topics);
  }

  producer(): BusProducer {
    const producer = new KafkaProducer(
      this.kafka,
      this.config,
      this.log.child({ component: 'kafka-producer' }),
      this.scrub,
    );
    this.producers.add(producer);
    const framing = this.framing;
    if (!framing) return producer;
    return {
      async send(topic, messages) {
        const framed = await Promise.all(
          messages.map(async (message) => ({ ...message, value: await framing.toWire(topic, message.value) })),
        );
        return producer.send(topic, framed);
      },
      close: () => producer.close(),
    };
  }

  consumer(options: ConsumerOptions): BusConsumer {
    const clientId = options.clientId ? `${this.config.clientId}-${options.clientId}` : this.config.clientId;
    const log = this.log.child({ component: 'kafka-consumer', group: options.groupId });
    const groupState = (groupId: string) => this.admin.groupState(groupId);
    const consumer = new KafkaConsumer(
      createKafkaClient(this.config, log, clientId),
      options,
      this.config,
      groupState,
      log,
      this.scrub,
    );
    this.consumers.add(consumer);
    const framing = this.framing;
    if (!framing) return consumer;
    return {
      start: (handlers: ConsumerHandlers) =>
        consumer.start({
          ...handlers,
          async onMessage(message) {
            message.value = await framing.fromWire(message.value);
            return handlers.onMessage(message);
          },
        }),
      commit: (offsets) => consumer.commit(offsets),
      pause: () => consumer.pause(),
      resume: () => consumer.resume(),
      stop: () => consumer.stop(),
    };
  }

  lag(groupId: string, topics: string[]): Promise<PartitionLag[]> {
    return this.admin.lag(groupId, topics);
  }

  describeGroup(groupId: string, topics: string[]): Promise<GroupDescription> {
    return this.admin.describeGroup(groupId, topics);
  }

  /** Stops consumers first (they may still commit), then producers and the admin client. */
  async close(): Promise<void> {
    // Consumers use the admin client to watch the handover when they leave: it closes last.
    await Promise.allSettled([...this.consumers].map((consumer) => consumer.stop()));
    await Promise.allSettled([...this.producers].map((producer) => producer.close()));
    await this.admin.close();
  }
}
