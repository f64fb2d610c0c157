import type { FingerprintStore, Logger } from '@crawler/core';
import { errorMessage } from '@crawler/core';
import type { QueueTiming } from './slow-down.js';

const NAMESPACE = 'politeness';
/** A back-off streak is forgotten after a quiet hour; a pending nextAt is always kept until it passes. */
const KEEP_MS = 3_600_000;

/**
 * Per-queue timing shared through the fingerprint store (Redis in distributed mode), so a host
 * that moves to another fetcher on a rebalance keeps its delay and back-off. Read when a queue
 * becomes active in this process, written when a request ends. A store failure costs sharing,
 * not politeness: this process still spaces its own requests.
 */
export class QueueStateStore {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly store: FingerprintStore,
    private readonly logger: Logger,
  ) {}

  async load(queueKey: string): Promise<QueueTiming | null> {
    try {
      const [value] = await this.store.get(NAMESPACE, [queueKey]);
      if (!value) return null;
      const parsed = JSON.parse(value) as { n?: unknown; s?: unknown };
      return typeof parsed.n === 'number' && typeof parsed.s === 'number'
        ? { nextAt: parsed.n, busyStreak: parsed.s }
        : null;
    } catch (error) {
      this.logger.warn(
        { queueKey, err: errorMessage(error) },
        'shared politeness state unreadable; using this process’s own',
      );
      return null;
    }
  }

  save(queueKey: string, timing: QueueTiming, now: number): void {
    const ttlMs = Math.max(0, timing.nextAt - now) + KEEP_MS;
    const write = this.store
      .set([
        {
          namespace: NAMESPACE,
          key: queueKey,
          value: JSON.stringify({ n: timing.nextAt, s: timing.busyStreak }),
          ttlMs,
        },
      ])
      .catch((error: unknown) =>
        this.logger.warn({ queueKey, err: errorMessage(error) }, 'could not share politeness state'),
      )
      .finally(() => this.pending.delete(write));
    this.pending.add(write);
  }

  /** Waits for writes in progress, so a stopping fetcher hands its queues over with their state. */
  async flush(): Promise<void> {
    await Promise.all([...this.pending]);
  }
}
