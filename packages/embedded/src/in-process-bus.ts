import { CrawlerError, partitionForKey, ErrorCode } from '@crawler/core';
import { TopicJournal } from './topic-journal.js';
import type {
  Bus,
  BusConsumer,
  BusProducer,
  ConsumerHandlers,
  ConsumerOptions,
  IncomingMessage,
  OutgoingMessage,
  PartitionLag,
  TopicConfig,
  TopicPartition,
  TopicPartitionOffset,
} from '@crawler/core';

/** One partition's log: messages from `base` on; older ones were trimmed. */
class PartitionLog {
  base = 0;
  private head = 0;
  private messages: IncomingMessage[] = [];
  bytes = 0;

  get end(): number {
    return this.base + this.messages.length - this.head;
  }

  append(message: IncomingMessage): void {
    this.messages.push(message);
    this.bytes += message.value.length;
  }

  at(offset: number): IncomingMessage | undefined {
    return this.messages[this.head + offset - this.base];
  }

  /** Messages from `base` on. */
  retained(): IncomingMessage[] {
    return this.messages.slice(this.head);
  }

  /** Drops messages below `offset`. */
  trimTo(offset: number): void {
    while (this.base < offset && this.head < this.messages.length) {
      this.bytes -= this.messages[this.head]!.value.length;
      this.messages[this.head] = undefined as unknown as IncomingMessage;
      this.head++;
      this.base++;
    }
    if (this.head > 4096 && this.head * 2 > this.messages.length) {
      this.messages = this.messages.slice(this.head);
      this.head = 0;
    }
  }
}

interface TopicState {
  config: TopicConfig;
  partitions: PartitionLog[];
  roundRobin: number;
}

export interface InProcessBusOptions {
  /** Bytes kept per partition of a topic no group reads (Kafka's retention.bytes); read topics keep what is unconsumed. */
  retentionBytesPerPartition?: number;
  /** The same cap for the named topics, in place of `retentionBytesPerPartition` (0 keeps nothing). */
  retentionBytesByTopic?: Readonly<Record<string, number>>;
  /**
   * Topics kept in a folder, with their groups' committed offsets, so a restarted bus delivers what
   * was not consumed (topic-journal.ts); `topics` names them (every topic when omitted), the others
   * live in memory only.
   */
  durable?: { dir: string; topics?: readonly string[] };
}

/**
 * The bus inside one process, with the semantics of the Kafka adapter: keyed partitions (Kafka's
 * murmur2), consumer groups that split partitions and rebalance as members come and go, committed
 * offsets a restarted member resumes from, and pause/resume. Messages consumed by every group that
 * reads a topic are trimmed, so a long crawl does not grow memory.
 */
export class InProcessBus implements Bus {
  private readonly topics = new Map<string, TopicState>();
  private readonly groups = new Map<string, Group>();
  private readonly retentionBytes: (topic: string) => number;
  private readonly journal: TopicJournal | null;
  private readonly isDurable: (topic: string) => boolean;
  private closed = false;

  constructor(options: InProcessBusOptions = {}) {
    const byTopic = new Map(Object.entries(options.retentionBytesByTopic ?? {}));
    const perPartition = options.retentionBytesPerPartition ?? 8 * 1024 * 1024;
    this.retentionBytes = (topic) => byTopic.get(topic) ?? perPartition;
    this.journal = options.durable ? new TopicJournal(options.durable.dir) : null;
    const named = options.durable?.topics ? new Set(options.durable.topics) : null;
    this.isDurable = (topic) => this.journal !== null && (named === null || named.has(topic));
  }

  async createTopics(topics: TopicConfig[]): Promise<void> {
    for (const config of topics) {
      if (this.topics.has(config.name)) continue;
      const partitions = Array.from({ length: config.partitions }, (_, partition) => {
        const log = new PartitionLog();
        if (this.journal && this.isDurable(config.name)) {
          const { base, messages } = this.journal.load(config.name, partition);
          log.base = base;
          for (const message of messages) log.append(message);
        }
        return log;
      });
      this.topics.set(config.name, { config, partitions, roundRobin: 0 });
    }
  }

  producer(): BusProducer {
    return {
      send: async (topic, messages) => this.append(topic, messages),
      close: async () => undefined,
    };
  }

  consumer(options: ConsumerOptions): BusConsumer {
    let group = this.groups.get(options.groupId);
    if (!group) {
      group = new Group(options.groupId, this);
      for (const [topic, partition, offset] of this.journal?.committed(options.groupId) ?? [])
        group.committed.set(tpKey(topic, partition), offset);
      this.groups.set(options.groupId, group);
    }
    return new Member(group, options);
  }

  async lag(groupId: string, topics: string[]): Promise<PartitionLag[]> {
    const group = this.groups.get(groupId);
    const out: PartitionLag[] = [];
    for (const name of topics) {
      const topic = this.topic(name);
      topic.partitions.forEach((log, partition) => {
        const committed = group?.committed.get(tpKey(name, partition)) ?? -1;
        out.push({
          topic: name,
          partition,
          committed,
          end: log.end,
          lag: log.end - (committed < 0 ? log.base : committed),
        });
      });
    }
    return out;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.groups.values()].flatMap((group) => group.members.map((member) => member.stop())));
    this.journal?.close();
  }

  /** @internal A group committed: durable topics keep their offsets on disk. */
  committed(groupId: string, offsets: TopicPartitionOffset[]): void {
    const durable = offsets.filter(({ topic }) => this.isDurable(topic));
    if (durable.length > 0) this.journal?.commit(groupId, durable);
  }

  /** @internal */
  topic(name: string): TopicState {
    const topic = this.topics.get(name);
    if (!topic)
      throw new CrawlerError(
        ErrorCode.BUS_UNKNOWN_TOPIC,
        `topic ${name} does not exist; topics are created from schemas/catalog.json at start`,
      );
    return topic;
  }

  private append(name: string, messages: OutgoingMessage[]): void {
    if (this.closed) throw new CrawlerError(ErrorCode.BUS_CLOSED, 'the bus is closed');
    const topic = this.topic(name);
    const count = topic.partitions.length;
    const now = Date.now();
    const touched = new Map<number, IncomingMessage[]>();
    for (const message of messages) {
      const partition = message.key === null ? topic.roundRobin++ % count : partitionForKey(message.key, count);
      const log = topic.partitions[partition]!;
      const incoming: IncomingMessage = {
        topic: name,
        partition,
        offset: log.end,
        key: message.key === null ? null : Buffer.from(message.key),
        value: message.value,
        headers: { ...message.headers },
        timestamp: now,
      };
      log.append(incoming);
      let appended = touched.get(partition);
      if (!appended) touched.set(partition, (appended = []));
      appended.push(incoming);
    }
    if (this.journal && this.isDurable(name))
      for (const [partition, appended] of touched) this.journal.append(name, partition, appended);
    for (const partition of touched.keys()) this.trim(name, partition);
    for (const group of this.groups.values()) group.wake();
  }

  /** @internal Drops what every reading group has committed; unread topics keep their last bytes. */
  trim(name: string, partition: number): void {
    const log = this.topic(name).partitions[partition]!;
    let floor = Number.POSITIVE_INFINITY;
    let readers = 0;
    for (const group of this.groups.values()) {
      if (!group.reads(name)) continue;
      readers++;
      floor = Math.min(floor, group.committed.get(tpKey(name, partition)) ?? log.base);
    }
    if (readers > 0) {
      log.trimTo(floor);
      if (this.journal && this.isDurable(name)) this.journal.trimmed(name, partition, log.base, () => log.retained());
      return;
    }
    const retention = this.retentionBytes(name);
    while (log.bytes > retention && log.base < log.end)
      log.trimTo(log.base + Math.max(1, Math.floor((log.end - log.base) / 4)));
  }
}

/** A consumer group: its members, the assignment and the committed offsets. */
class Group {
  readonly members: Member[] = [];
  readonly committed = new Map<string, number>();
  private readonly topicsRead = new Set<string>();
  private rebalancing: Promise<void> = Promise.resolve();

  constructor(
    readonly id: string,
    readonly bus: InProcessBus,
  ) {}

  reads(topic: string): boolean {
    return this.topicsRead.has(topic);
  }

  join(member: Member): Promise<void> {
    this.members.push(member);
    for (const topic of member.options.topics) this.topicsRead.add(topic);
    return this.rebalance();
  }

  leave(member: Member): Promise<void> {
    const index = this.members.indexOf(member);
    if (index >= 0) this.members.splice(index, 1);
    return this.rebalance();
  }

  wake(): void {
    for (const member of this.members) member.wake();
  }

  /** Revokes everything, then deals partitions round-robin over members in join order. */
  private rebalance(): Promise<void> {
    this.rebalancing = this.rebalancing.then(async () => {
      await Promise.all(this.members.map((member) => member.revokeAll()));
      const partitions: TopicPartition[] = [];
      const topics = [...new Set(this.members.flatMap((member) => member.options.topics))].sort();
      for (const topic of topics) {
        this.bus.topic(topic).partitions.forEach((_, partition) => partitions.push({ topic, partition }));
      }
      const assignment = new Map<Member, TopicPartition[]>(this.members.map((member) => [member, []]));
      partitions.forEach((tp, i) => {
        const candidates = this.members.filter((member) => member.options.topics.includes(tp.topic));
        if (candidates.length > 0) assignment.get(candidates[i % candidates.length]!)!.push(tp);
      });
      for (const [member, assigned] of assignment) member.assign(assigned);
    });
    return this.rebalancing;
  }
}

class Member implements BusConsumer {
  private handlers: ConsumerHandlers | null = null;
  private assigned: TopicPartition[] = [];
  private readonly positions = new Map<string, number>();
  private paused = false;
  private running = false;
  private generation = 0;
  private wakeUp: (() => void) | null = null;
  /** Set by wake() so a wake-up between a round and the wait is not lost. */
  private woken = false;
  private loop: Promise<void> | null = null;
  private cursor = 0;

  constructor(
    private readonly group: Group,
    readonly options: ConsumerOptions,
  ) {}

  async start(handlers: ConsumerHandlers): Promise<void> {
    for (const topic of this.options.topics) this.group.bus.topic(topic);
    this.handlers = handlers;
    this.running = true;
    await this.group.join(this);
    this.loop = this.run();
  }

  async commit(offsets: TopicPartitionOffset[]): Promise<void> {
    const accepted = offsets.filter(({ topic, partition }) =>
      this.assigned.some((tp) => tp.topic === topic && tp.partition === partition),
    );
    for (const { topic, partition, offset } of accepted) this.group.committed.set(tpKey(topic, partition), offset);
    this.group.bus.committed(this.group.id, accepted);
    for (const { topic, partition } of accepted) this.group.bus.trim(topic, partition);
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.wake();
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.wake();
    await this.loop;
    await this.group.leave(this);
  }

  wake(): void {
    this.woken = true;
    const wake = this.wakeUp;
    this.wakeUp = null;
    wake?.();
  }

  /** Stops delivery, lets the handler finish and commit (as Kafka allows before a rejoin), then lets go. */
  async revokeAll(): Promise<void> {
    if (this.assigned.length === 0) return;
    const revoked = this.assigned;
    this.generation++;
    await this.handlers?.onRevoked?.(revoked);
    this.assigned = [];
    this.positions.clear();
  }

  assign(partitions: TopicPartition[]): void {
    this.assigned = partitions;
    for (const { topic, partition } of partitions) {
      const log = this.group.bus.topic(topic).partitions[partition]!;
      const committed = this.group.committed.get(tpKey(topic, partition));
      const start = committed ?? (this.options.fromBeginning ? log.base : log.end);
      this.positions.set(tpKey(topic, partition), Math.max(start, log.base));
    }
    this.handlers?.onAssigned?.(partitions);
    this.wake();
  }

  /** Delivers one message at a time, rotating over assigned partitions; sleeps when there is nothing. */
  private async run(): Promise<void> {
    while (this.running) {
      this.woken = false;
      const delivered = this.paused ? false : await this.deliverRound();
      if (!delivered && this.running && !this.woken) await new Promise<void>((resolve) => (this.wakeUp = resolve));
    }
  }

  private async deliverRound(): Promise<boolean> {
    const generation = this.generation;
    const partitions = this.assigned;
    let delivered = false;
    for (let i = 0; i < partitions.length; i++) {
      const tp = partitions[(this.cursor + i) % partitions.length]!;
      const key = tpKey(tp.topic, tp.partition);
      const log = this.group.bus.topic(tp.topic).partitions[tp.partition]!;
      for (let burst = 0; burst < 64; burst++) {
        if (!this.running || this.paused || generation !== this.generation) return delivered;
        const position = this.positions.get(key)!;
        if (position >= log.end) break;
        const message = log.at(Math.max(position, log.base))!;
        this.positions.set(key, message.offset + 1);
        delivered = true;
        await this.handlers!.onMessage(message);
      }
    }
    this.cursor++;
    return delivered;
  }
}

function tpKey(topic: string, partition: number): string {
  return `${topic}\u0000${partition}`;
}
