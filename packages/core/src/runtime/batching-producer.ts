import type { BusProducer, OutgoingMessage } from '../ports/bus.js';

export interface BatchingOptions {
  /** How long a message may wait for others to share its request; 0 = end of the current tick. */
  lingerMs: number;
  /** A batch is sent as soon as it holds this many bytes. */
  maxBatchBytes: number;
}

interface Pending {
  messages: OutgoingMessage[];
  bytes: number;
  waiters: { resolve: () => void; reject: (error: unknown) => void }[];
}

/**
 * Groups sends of many concurrent handlers into one request per topic, the main lever on Kafka
 * throughput. Each caller still learns when its own messages were acknowledged.
 */
export class BatchingProducer implements BusProducer {
  private pending = new Map<string, Pending>();
  private timer: NodeJS.Timeout | null = null;
  private scheduled = false;

  constructor(
    private readonly inner: BusProducer,
    private readonly options: BatchingOptions = { lingerMs: 0, maxBatchBytes: 1_000_000 },
  ) {}

  send(topic: string, messages: OutgoingMessage[]): Promise<void> {
    if (messages.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      let batch = this.pending.get(topic);
      if (!batch) {
        batch = { messages: [], bytes: 0, waiters: [] };
        this.pending.set(topic, batch);
      }
      for (const message of messages) {
        batch.messages.push(message);
        batch.bytes += message.value.length;
      }
      batch.waiters.push({ resolve, reject });
      if (batch.bytes >= this.options.maxBatchBytes) this.flushTopic(topic);
      else this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    const run = () => {
      this.scheduled = false;
      this.timer = null;
      for (const topic of [...this.pending.keys()]) this.flushTopic(topic);
    };
    if (this.options.lingerMs > 0) this.timer = setTimeout(run, this.options.lingerMs);
    else setImmediate(run);
  }

  private flushTopic(topic: string): void {
    const batch = this.pending.get(topic);
    if (!batch) return;
    this.pending.delete(topic);
    this.inner.send(topic, batch.messages).then(
      () => batch.waiters.forEach((waiter) => waiter.resolve()),
      (error: unknown) => batch.waiters.forEach((waiter) => waiter.reject(error)),
    );
  }

  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.scheduled = false;
    const sends = [...this.pending.keys()].map((topic) => {
      const waiters = this.pending.get(topic)!.waiters;
      this.flushTopic(topic);
      return new Promise<void>((resolve) => waiters.push({ resolve, reject: () => resolve() }));
    });
    await Promise.all(sends);
  }

  async close(): Promise<void> {
    await this.flush();
    await this.inner.close();
  }
}
