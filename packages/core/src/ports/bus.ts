/**
 * The message bus port: Kafka semantics (topics of keyed partitions, consumer groups, committed
 * offsets) so the in-process adapter and the Kafka adapter are interchangeable.
 */

export interface OutgoingMessage {
  /** Messages with one key land in one partition, in order. */
  key: string | null;
  value: Buffer;
  headers?: Record<string, string>;
}

export interface IncomingMessage {
  topic: string;
  partition: number;
  /** Offset of this message; committing `offset + 1` marks it consumed. */
  offset: number;
  key: Buffer | null;
  value: Buffer;
  headers: Record<string, string>;
  timestamp: number;
}

export interface TopicPartition {
  topic: string;
  partition: number;
}

export interface TopicPartitionOffset extends TopicPartition {
  offset: number;
}

export interface BusProducer {
  /** Resolves once the bus acknowledged every message (durably, for Kafka: acks=all). */
  send(topic: string, messages: OutgoingMessage[]): Promise<void>;
  close(): Promise<void>;
}

export interface ConsumerHandlers {
  /**
   * Called once per message, in offset order per partition. The next message of the partition is
   * delivered after the returned promise resolves, so resolving late is backpressure.
   */
  onMessage(message: IncomingMessage): Promise<void>;
  onAssigned?(partitions: TopicPartition[]): void;
  /** Called before partitions move to another member; commit what is finished here. */
  onRevoked?(partitions: TopicPartition[]): Promise<void>;
}

export interface ConsumerOptions {
  groupId: string;
  topics: string[];
  /** Where a group with no committed offset starts. */
  fromBeginning?: boolean;
  clientId?: string;
}

export interface BusConsumer {
  /** Resolves once the member joined its group and got its first assignment. */
  start(handlers: ConsumerHandlers): Promise<void>;
  /** Commits the next offset to read, per partition. Offsets of revoked partitions are ignored. */
  commit(offsets: TopicPartitionOffset[]): Promise<void>;
  pause(): void;
  resume(): void;
  /** Stops delivery and leaves the group; in-flight onMessage calls are awaited first. */
  stop(): Promise<void>;
}

export interface TopicConfig {
  name: string;
  partitions: number;
  retentionMs: number;
  maxMessageBytes: number;
}

export interface PartitionLag {
  topic: string;
  partition: number;
  /** Next offset the group will read (-1 when it never committed). */
  committed: number;
  /** Log-end offset: the offset the next produced message will get. */
  end: number;
  lag: number;
}

export interface PartitionProgress extends PartitionLag {
  /** When the group's committed offset of this partition last moved (epoch ms); null if unknown. */
  committedAt: number | null;
  /** `hostname/pid` of the process that made that commit; null if unknown. */
  committedBy?: string | null;
}

/** A member of a consumer group: one consumer of one process. */
export interface GroupMember {
  memberId: string;
  clientId: string;
  /** The address the broker sees. */
  host: string;
  /** `hostname/pid` of the member's process, when it said so on joining. */
  instance: string | null;
  partitions: TopicPartition[];
}

export interface GroupDescription {
  groupId: string;
  /** Stable, PreparingRebalance, CompletingRebalance, Empty or Dead. */
  state: string;
  members: GroupMember[];
  partitions: PartitionProgress[];
}

export interface Bus {
  createTopics(topics: TopicConfig[]): Promise<void>;
  producer(): BusProducer;
  consumer(options: ConsumerOptions): BusConsumer;
  /** Committed offsets against log-end offsets for one group. */
  lag(groupId: string, topics: string[]): Promise<PartitionLag[]>;
  /**
   * Who is in a group, what each member owns and how far each partition got: worker presence.
   * Optional: only a bus whose groups span processes (Kafka) can tell.
   */
  describeGroup?(groupId: string, topics: string[]): Promise<GroupDescription>;
  close(): Promise<void>;
}
