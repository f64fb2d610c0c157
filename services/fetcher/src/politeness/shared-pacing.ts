import { errorMessage, type Logger, type PaceGrant, type PaceStep, type PacingStore } from '@crawler/core';

const NAMESPACE = 'pace';

interface Pending {
  steps: PaceStep[];
  maxWaitMs: number;
  resolve(grant: PaceGrant): void;
  reject(error: unknown): void;
}

/**
 * The politeness queues' timing shared by every fetcher (the fingerprint store: Redis in
 * distributed mode): each request reserves its slot there, so a queue's spacing holds across
 * processes, and for a host that moves to another fetcher on a rebalance. Reservations made in
 * one tick go in one call (one round trip per node). What a request's end adds (a slow answer's
 * stretch, a Retry-After, a back-off) is written only when it pushes the queue further than its
 * reservation did.
 */
export class SharedPacing {
  private batch: Pending[] = [];
  private readonly writes = new Set<Promise<void>>();
  private lastWarning = 0;

  constructor(
    private readonly store: PacingStore,
    private readonly logger: Logger,
  ) {}

  /** The next slot of the queue, at most `maxWaitMs` away; rejects when the store cannot answer. */
  reserve(queueKey: string, spacingMs: number, maxWaitMs: number): Promise<PaceGrant> {
    return new Promise((resolve, reject) => {
      if (this.batch.length === 0) setImmediate(() => this.send());
      this.batch.push({ steps: [{ namespace: NAMESPACE, key: queueKey, spacingMs }], maxWaitMs, resolve, reject });
    });
  }

  /** No slot of the queue before `holdMs` from now; `busyStreak` is its back-off streak. */
  hold(queueKey: string, holdMs: number, busyStreak: number): void {
    const write = this.store
      .holdPace([{ namespace: NAMESPACE, key: queueKey, holdMs, busyStreak }])
      .catch((error: unknown) => this.warn(error, 'could not share a politeness hold'))
      .finally(() => this.writes.delete(write));
    this.writes.add(write);
  }

  /** Waits for holds in progress, so a stopping fetcher hands its queues over with their pauses. */
  async flush(): Promise<void> {
    await Promise.all([...this.writes]);
  }

  /** A store failure costs sharing, not politeness: the caller spaces its own requests meanwhile. */
  warn(error: unknown, message: string): void {
    const now = Date.now();
    if (now - this.lastWarning < 10_000) return;
    this.lastWarning = now;
    this.logger.warn({ err: errorMessage(error) }, `${message}; spacing by this process's own timing meanwhile`);
  }

  private send(): void {
    const batch = this.batch;
    this.batch = [];
    this.store.pace(batch.map(({ steps, maxWaitMs }) => ({ steps, maxWaitMs }))).then(
      (grants) => batch.forEach((pending, i) => pending.resolve(grants[i]!)),
      (error: unknown) => {
        this.warn(error, 'shared politeness timing unavailable');
        for (const pending of batch) pending.reject(error);
      },
    );
  }
}
