import { describe, expect, it } from 'vitest';
import type { Bus, ConsumerHandlers, ConsumerOptions, IncomingMessage, TopicPartitionOffset } from './bus.js';
import { brokerName, catalogName, PrefixedBus, prefixTopics } from './prefixed-bus.js';

/** A bus that records the names it is given and answers with broker names, as Kafka does. */
function recordingBus() {
  const seen: string[] = [];
  let handlers: ConsumerHandlers | null = null;
  const committed: TopicPartitionOffset[] = [];
  const bus: Bus = {
    async createTopics(topics) {
      seen.push(...topics.map((topic) => `create ${topic.name}`));
    },
    producer: () => ({
      async send(topic) {
        seen.push(`send ${topic}`);
      },
      close: async () => undefined,
    }),
    consumer(options: ConsumerOptions) {
      seen.push(`join ${options.groupId} ${options.topics.join(',')}`);
      return {
        async start(given) {
          handlers = given;
        },
        async commit(offsets) {
          committed.push(...offsets);
        },
        pause: () => undefined,
        resume: () => undefined,
        stop: async () => undefined,
      };
    },
    async lag(groupId, topics) {
      seen.push(`lag ${groupId} ${topics.join(',')}`);
      return topics.map((topic) => ({ topic, partition: 0, committed: 1, end: 2, lag: 1 }));
    },
    async describeGroup(groupId, topics) {
      return {
        groupId,
        state: 'Stable',
        members: [
          {
            memberId: 'm',
            clientId: 'c',
            host: 'h',
            instance: null,
            partitions: [{ topic: topics[0]!, partition: 3 }],
          },
        ],
        partitions: [{ topic: topics[0]!, partition: 3, committed: 1, end: 1, lag: 0, committedAt: null }],
      };
    },
    close: async () => undefined,
  };
  return { bus, seen, committed, deliver: () => handlers! };
}

describe('PrefixedBus', () => {
  it('puts the prefix before every topic and group name on the way to the broker', async () => {
    const inner = recordingBus();
    const bus = prefixTopics(inner.bus, 'crawl-7.');
    await bus.createTopics([{ name: 'crawl.frontier', partitions: 1, retentionMs: 1, maxMessageBytes: 1 }]);
    await bus.producer().send('crawl.status', []);
    const consumer = bus.consumer({ groupId: 'fetcher', topics: ['crawl.frontier'] });
    await consumer.start({ onMessage: async () => undefined });
    await consumer.commit([{ topic: 'crawl.frontier', partition: 2, offset: 9 }]);
    await bus.lag('dedup', ['crawl.parsed']);
    expect(inner.seen).toEqual([
      'create crawl-7.crawl.frontier',
      'send crawl-7.crawl.status',
      'join crawl-7.fetcher crawl-7.crawl.frontier',
      'lag crawl-7.dedup crawl-7.crawl.parsed',
    ]);
    expect(inner.committed).toEqual([{ topic: 'crawl-7.crawl.frontier', partition: 2, offset: 9 }]);
  });

  it('takes it off every name that comes back, so nothing above it knows the prefix', async () => {
    const inner = recordingBus();
    const bus = prefixTopics(inner.bus, 'crawl-7.');
    const got: IncomingMessage[] = [];
    const assigned: string[] = [];
    const revoked: string[] = [];
    await bus.consumer({ groupId: 'fetcher', topics: ['crawl.frontier'] }).start({
      onMessage: async (message) => void got.push(message),
      onAssigned: (partitions) => assigned.push(...partitions.map((tp) => tp.topic)),
      onRevoked: async (partitions) => void revoked.push(...partitions.map((tp) => tp.topic)),
    });
    const handlers = inner.deliver();
    handlers.onAssigned!([{ topic: 'crawl-7.crawl.frontier', partition: 0 }]);
    await handlers.onMessage({
      topic: 'crawl-7.crawl.frontier',
      partition: 0,
      offset: 4,
      key: null,
      value: Buffer.from('v'),
      headers: {},
      timestamp: 0,
    });
    await handlers.onRevoked!([{ topic: 'crawl-7.crawl.frontier', partition: 0 }]);
    expect(got.map((message) => [message.topic, message.offset])).toEqual([['crawl.frontier', 4]]);
    expect(assigned).toEqual(['crawl.frontier']);
    expect(revoked).toEqual(['crawl.frontier']);
    expect((await bus.lag('dedup', ['crawl.parsed']))[0]!.topic).toBe('crawl.parsed');
    const description = await bus.describeGroup!('fetcher', ['crawl.frontier']);
    expect(description.groupId).toBe('fetcher');
    expect(description.partitions[0]!.topic).toBe('crawl.frontier');
    expect(description.members[0]!.partitions[0]!.topic).toBe('crawl.frontier');
  });

  it('names topics as the broker does for what leaves the process, and is no wrapper without a prefix', () => {
    const inner = recordingBus().bus;
    const bus = prefixTopics(inner, 'crawl-7.');
    expect(bus).toBeInstanceOf(PrefixedBus);
    expect(brokerName(bus, 'fetcher')).toBe('crawl-7.fetcher');
    expect(catalogName(bus, 'crawl-7.crawl.links')).toBe('crawl.links');
    expect(prefixTopics(inner, '')).toBe(inner);
    expect(brokerName(inner, 'fetcher')).toBe('fetcher');
    expect(catalogName(inner, 'crawl.links')).toBe('crawl.links');
  });
});
