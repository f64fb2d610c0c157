import type { LinkBase, LinkMutation, LinkRecord } from '@crawler/core';

/** Most records of one batched update: one multi-get and one bulk write to a remote link base. */
const MAX_BATCH = 500;

interface Pending {
  mutations: LinkMutation[];
  waiters: { resolve(record: LinkRecord | null): void; reject(error: unknown): void }[];
}

/**
 * Gathers single-record updates made at about the same time (the status stage handles 64 messages
 * at once) into one link base update: two requests for the batch instead of two per record on
 * Elasticsearch. Updates of one record in a batch are applied in call order. A batch goes out on
 * the next turn of the event loop, or at MAX_BATCH records. If the batch fails, every caller in it
 * gets the error, and the stage runner retries each message on its own.
 */
export class UpdateBatcher {
  private pending = new Map<string, Pending>();
  private scheduled = false;

  /** `beforeWrite` runs before each batch's write (the partition epochs' check); its failure fails the batch. */
  constructor(
    private readonly linkbase: LinkBase,
    private readonly beforeWrite?: () => Promise<void>,
  ) {}

  /** The record as written, or null when it is unknown or no mutation changed it. */
  update(id: string, mutate: LinkMutation): Promise<LinkRecord | null> {
    return new Promise((resolve, reject) => {
      let entry = this.pending.get(id);
      if (!entry) this.pending.set(id, (entry = { mutations: [], waiters: [] }));
      entry.mutations.push(mutate);
      entry.waiters.push({ resolve, reject });
      if (this.pending.size >= MAX_BATCH) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    const apply: LinkMutation = (record) => {
      let current = record;
      for (const mutate of batch.get(record.id)!.mutations) current = mutate(current) ?? current;
      return current === record ? null : current;
    };
    const write = async () => {
      await this.beforeWrite?.();
      return this.linkbase.update([...batch.keys()], apply);
    };
    write().then(
      (written) => {
        const byId = new Map(written.map((record) => [record.id, record]));
        for (const [id, entry] of batch) for (const waiter of entry.waiters) waiter.resolve(byId.get(id) ?? null);
      },
      (error: unknown) => {
        for (const entry of batch.values()) for (const waiter of entry.waiters) waiter.reject(error);
      },
    );
  }
}
