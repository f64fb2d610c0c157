import type {
  Bus,
  BusConsumer,
  BusProducer,
  ConsumerOptions,
  GroupDescription,
  PartitionLag,
  TopicConfig,
  TopicPartition,
} from './bus.js';

/**
 * Topic naming. Inside the crawler every topic and consumer group has its catalog name
 * (crawl.frontier, fetcher); on the broker it carries the deployment's CRAWLER_TOPIC_PREFIX, so
 * crawls sharing a Kafka cluster never read each other's topics or join each other's groups. This
 * bus adds the prefix to every name on the way out and takes it off every name on the way back:
 * nothing above it knows the prefix.
 */
export class PrefixedBus implements Bus {
  readonly describeGroup?: (groupId: string, topics: string[]) => Promise<GroupDescription>;

  constructor(
    readonly inner: Bus,
    readonly prefix: string,
  ) {
    const describe = inner.describeGroup?.bind(inner);
    if (describe)
      this.describeGroup = async (groupId, topics) => {
        const description = await describe(
          this.brokerName(groupId),
          topics.map((topic) => this.brokerName(topic)),
        );
        return {
          ...description,
          groupId,
          members: description.members.map((member) => ({ ...member, partitions: this.fromBroker(member.partitions) })),
          partitions: this.fromBroker(description.partitions),
        };
      };
  }

  /** The name a catalog topic or group has on the broker. */
  brokerName(name: string): string {
    return this.prefix + name;
  }

  /** The catalog name of a topic or group as the broker names it. */
  catalogName(name: string): string {
    return name.startsWith(this.prefix) ? name.slice(this.prefix.length) : name;
  }

  createTopics(topics: TopicConfig[]): Promise<void> {
    return this.inner.createTopics(topics.map((topic) => ({ ...topic, name: this.brokerName(topic.name) })));
  }

  producer(): BusProducer {
    const producer = this.inner.producer();
    return {
      send: (topic, messages) => producer.send(this.brokerName(topic), messages),
      close: () => producer.close(),
    };
  }

  consumer(options: ConsumerOptions): BusConsumer {
    const consumer = this.inner.consumer({
      ...options,
      groupId: this.brokerName(options.groupId),
      topics: options.topics.map((topic) => this.brokerName(topic)),
    });
    return {
      start: (handlers) =>
        consumer.start({
          onMessage: (message) => handlers.onMessage({ ...message, topic: this.catalogName(message.topic) }),
          onAssigned: handlers.onAssigned && ((partitions) => handlers.onAssigned!(this.fromBroker(partitions))),
          onRevoked: handlers.onRevoked && ((partitions) => handlers.onRevoked!(this.fromBroker(partitions))),
        }),
      commit: (offsets) =>
        consumer.commit(offsets.map((offset) => ({ ...offset, topic: this.brokerName(offset.topic) }))),
      pause: () => consumer.pause(),
      resume: () => consumer.resume(),
      stop: () => consumer.stop(),
    };
  }

  async lag(groupId: string, topics: string[]): Promise<PartitionLag[]> {
    return this.fromBroker(
      await this.inner.lag(
        this.brokerName(groupId),
        topics.map((topic) => this.brokerName(topic)),
      ),
    );
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private fromBroker<T extends TopicPartition>(entries: T[]): T[] {
    return entries.map((entry) => ({ ...entry, topic: this.catalogName(entry.topic) }));
  }
}

/** The crawl's bus under CRAWLER_TOPIC_PREFIX: the bus itself when there is no prefix. */
export function prefixTopics(bus: Bus, prefix: string): Bus {
  return prefix === '' ? bus : new PrefixedBus(bus, prefix);
}

/**
 * The name a catalog topic or group has on the broker, for what leaves the process and is read
 * beside the broker's own tools: metric labels and dead letters.
 */
export function brokerName(bus: Bus, name: string): string {
  return bus instanceof PrefixedBus ? bus.brokerName(name) : name;
}

/** The catalog name of a topic or group named as on the broker (a dead letter's original topic). */
export function catalogName(bus: Bus, name: string): string {
  return bus instanceof PrefixedBus ? bus.catalogName(name) : name;
}
