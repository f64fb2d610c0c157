import { sleep, type GroupDescription, type Logger, type PartitionLag, type TopicConfig } from '@crawler/core';
import type { Admin, Kafka } from 'kafkajs';
import { toBusError } from './kafka-errors.js';
import { describeKafkaGroup, readProgress } from './kafka-group-description.js';

const CREATE_TIMEOUT_MS = 30_000;

/** Topic creation, consumer lag and group state, through one lazily connected admin client. */
export class KafkaTopicAdmin {
  private readonly admin: Admin;
  private connecting: Promise<void> | null = null;

  constructor(
    kafka: Kafka,
    private readonly replicationFactor: number,
    private readonly log: Logger,
    private readonly scrub: (text: string) => string,
  ) {
    this.admin = kafka.admin();
  }

  /**
   * Creates the topics that do not exist with their partitions, retention and record size limit.
   * An existing topic is left as it is: changing partitions would move keys between partitions.
   */
  async createTopics(topics: TopicConfig[]): Promise<void> {
    const wanted = [...new Map(topics.map((topic) => [topic.name, topic])).values()];
    if (wanted.length === 0) return;
    try {
      await this.connect();
      const existing = new Set(await this.admin.listTopics());
      const missing = wanted.filter((topic) => !existing.has(topic.name));
      if (missing.length > 0) {
        // Resolves false when another process created them first, which is what we want too.
        await this.admin.createTopics({
          timeout: CREATE_TIMEOUT_MS,
          // kafkajs's own leader wait gives up on "does not host this topic-partition" (a new topic's
          // metadata not yet everywhere, seen with two test files at once); awaitLeaders retries it.
          waitForLeaders: false,
          topics: missing.map((topic) => ({
            topic: topic.name,
            numPartitions: topic.partitions,
            replicationFactor: this.replicationFactor,
            configEntries: [
              { name: 'retention.ms', value: String(topic.retentionMs) },
              { name: 'max.message.bytes', value: String(topic.maxMessageBytes) },
            ],
          })),
        });
        await this.awaitLeaders(missing.map((topic) => topic.name));
        this.log.info({ topics: missing.map((topic) => topic.name) }, 'created topics');
      }
      await this.warnOnPartitionDrift(wanted.filter((topic) => existing.has(topic.name)));
    } catch (error) {
      throw toBusError(error, `creating topics ${wanted.map((topic) => topic.name).join(', ')}`, this.scrub);
    }
  }

  /** Per partition: committed offset of the group (-1 if none), log-end offset, and what is left to read. */
  async lag(groupId: string, topics: string[]): Promise<PartitionLag[]> {
    try {
      await this.connect();
      return (await readProgress(this.admin, groupId, topics)).map(({ topic, partition, committed, end, lag }) => ({
        topic,
        partition,
        committed,
        end,
        lag,
      }));
    } catch (error) {
      throw toBusError(error, `reading the lag of group ${groupId}`, this.scrub);
    }
  }

  /** Members, their processes and partitions, and per-partition progress of one group. */
  async describeGroup(groupId: string, topics: string[]): Promise<GroupDescription> {
    try {
      await this.connect();
      return await describeKafkaGroup(this.admin, groupId, topics);
    } catch (error) {
      throw toBusError(error, `describing group ${groupId}`, this.scrub);
    }
  }

  /** The group's coordinator state: Stable, PreparingRebalance, CompletingRebalance, Empty or Dead. */
  async groupState(groupId: string): Promise<string> {
    try {
      await this.connect();
      const { groups } = await this.admin.describeGroups([groupId]);
      return groups[0]?.state ?? 'Dead';
    } catch (error) {
      throw toBusError(error, `describing group ${groupId}`, this.scrub);
    }
  }

  async close(): Promise<void> {
    if (!this.connecting) return;
    await this.connecting.catch(() => undefined);
    this.connecting = null;
    await this.admin.disconnect();
  }

  /**
   * Waits until the leader of every partition answers. Metadata names a leader slightly before that
   * broker takes writes; a produce in between fails on some partitions, and kafkajs retries the
   * whole request, writing the records of the partitions that had succeeded twice.
   */
  private async awaitLeaders(topics: string[]): Promise<void> {
    const deadline = Date.now() + CREATE_TIMEOUT_MS;
    await Promise.all(
      topics.map(async (topic) => {
        for (;;) {
          try {
            await this.admin.fetchTopicOffsets(topic);
            return;
          } catch (error) {
            if (Date.now() > deadline) throw error;
            await sleep(50);
          }
        }
      }),
    );
  }

  private async warnOnPartitionDrift(present: TopicConfig[]): Promise<void> {
    if (present.length === 0) return;
    const { topics } = await this.admin.fetchTopicMetadata({ topics: present.map((topic) => topic.name) });
    for (const topic of present) {
      const actual = topics.find((meta) => meta.name === topic.name)?.partitions.length;
      if (actual !== undefined && actual !== topic.partitions) {
        this.log.warn(
          { topic: topic.name, partitions: actual, expected: topic.partitions },
          'existing topic has a different partition count than the catalog; left unchanged',
        );
      }
    }
  }

  private connect(): Promise<void> {
    this.connecting ??= this.admin.connect().catch((error: unknown) => {
      this.connecting = null;
      throw error;
    });
    return this.connecting;
  }
}
