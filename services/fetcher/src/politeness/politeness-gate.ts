import { CrawlerError, ErrorCode } from '@crawler/core';
import type { QueueStateStore } from './queue-state-store.js';
import { afterRequest, type Feedback, type QueueTiming, type SlowDownOptions } from './slow-down.js';

export interface PolitenessOptions {
  /** Requests in flight across all queues. */
  globalConcurrency: number;
  /** Requests in flight to one queue. */
  perQueueConcurrency: number;
  /** Minimum time between two requests to one queue, counted from the start and from the end of the previous one. */
  minDelayMs: number;
  slowDown: SlowDownOptions;
  /** URLs waiting for one queue; past it new ones are turned away (see admit). */
  maxWaitingPerQueue: number;
  /** A URL whose estimated wait exceeds this is turned away rather than held. */
  maxQueueWaitMs: number;
  /** Shared per-queue timing (distributed mode); null: this process only. */
  shared?: QueueStateStore | null;
  now?: () => number;
  /** How often idle queues are dropped (default 5 s). */
  sweepIntervalMs?: number;
}

export interface Permit {
  /** Ends the request; what happened decides when the queue may go again. */
  release(feedback?: Feedback): void;
}

export type Admission = { admitted: true } | { admitted: false; retryAfterMs: number };

/** The fetcher is stopping and a URL was still waiting for its turn: it is handed back, not failed. */
export class GateClosedError extends CrawlerError {
  constructor() {
    super(ErrorCode.FETCHER_STOPPING, 'the fetcher is stopping; the URL is handed back uncommitted');
  }
}

interface Waiter {
  delayMs: number;
  front: boolean;
  grant(permit: Permit): void;
}

interface QueueState {
  key: string;
  active: number;
  timing: QueueTiming;
  /** Spacing the latest request asked for: the estimate for URLs that wait. */
  delayMs: number;
  waiters: Waiter[];
  timer: NodeJS.Timeout | null;
  /** False until the shared timing was read: nothing is granted before. */
  ready: boolean;
}

const NOT_REACHED: Feedback = { signal: 'unreached', durationMs: 0 };

/**
 * Decides when each request may go: at most N in flight per queue and globally, a minimum delay
 * between requests to one queue (the larger of the configured delay and the site's Crawl-delay),
 * stretched when the site answers slowly and held after 429/503. Waiting requests wait in memory,
 * bounded per queue by admit() and in all by how many messages the stage accepts. Idle queues are
 * swept, so memory follows the active hosts, not every host ever seen.
 */
export class PolitenessGate {
  private readonly queues = new Map<string, QueueState>();
  private globalActive = 0;
  /** Queues that could go but for the global limit, in arrival order. */
  private readonly starved = new Set<QueueState>();
  private readonly now: () => number;
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly options: PolitenessOptions) {
    this.now = options.now ?? Date.now;
    this.sweeper = setInterval(() => this.sweep(), options.sweepIntervalMs ?? 5000);
    this.sweeper.unref();
  }

  /**
   * Whether a URL for this queue should wait here at all. A queue with too many URLs waiting, or
   * an estimated wait past maxQueueWaitMs, turns new ones away with the wait, so one slow host
   * cannot hold every slot the stage has (the caller hands the URL back to the scheduler).
   */
  admit(queueKey: string, delayMs = 0): Admission {
    const queue = this.queues.get(queueKey);
    if (!queue) return { admitted: true };
    const spacing = Math.max(this.options.minDelayMs, delayMs, queue.delayMs);
    const ahead = queue.waiters.length + queue.active;
    const estimate =
      Math.max(0, queue.timing.nextAt - this.now()) + Math.floor(ahead / this.options.perQueueConcurrency) * spacing;
    if (queue.waiters.length >= this.options.maxWaitingPerQueue || estimate > this.options.maxQueueWaitMs)
      return { admitted: false, retryAfterMs: Math.max(estimate, spacing) };
    return { admitted: true };
  }

  /**
   * Resolves when the request may go; rejects with GateClosedError if `signal` aborts first.
   * `front` puts the request ahead of the queue's waiting URLs (still spaced like any request):
   * a rendering page's sub-requests, which hold a browser page while they wait.
   */
  acquire(queueKey: string, delayMs = 0, signal?: AbortSignal, options: { front?: boolean } = {}): Promise<Permit> {
    const queue = this.queueFor(queueKey);
    queue.delayMs = Math.max(this.options.minDelayMs, delayMs);
    return new Promise<Permit>((resolve, reject) => {
      if (signal?.aborted) return reject(new GateClosedError());
      const waiter: Waiter = {
        delayMs: queue.delayMs,
        front: options.front === true,
        grant: (permit) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(permit);
        },
      };
      const onAbort = () => {
        const index = queue.waiters.indexOf(waiter);
        if (index >= 0) queue.waiters.splice(index, 1);
        reject(new GateClosedError());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      // Front requests keep their own arrival order, ahead of every ordinary waiter.
      const at = options.front ? queue.waiters.findIndex((other) => !other.front) : -1;
      if (at < 0) queue.waiters.push(waiter);
      else queue.waiters.splice(at, 0, waiter);
      this.pump(queue);
    });
  }

  /** Queues in memory, URLs waiting and requests in flight, for metrics and tests. */
  depth(): { queues: number; waiting: number; active: number } {
    let waiting = 0;
    for (const queue of this.queues.values()) waiting += queue.waiters.length;
    return { queues: this.queues.size, waiting, active: this.globalActive };
  }

  /** The timing a queue will apply next, for tests and the check command. */
  timing(queueKey: string): QueueTiming | null {
    const queue = this.queues.get(queueKey);
    return queue ? { ...queue.timing } : null;
  }

  close(): void {
    clearInterval(this.sweeper);
    for (const queue of this.queues.values()) if (queue.timer) clearTimeout(queue.timer);
  }

  private queueFor(queueKey: string): QueueState {
    const queue = this.queues.get(queueKey);
    if (queue) return queue;
    const created: QueueState = {
      key: queueKey,
      active: 0,
      timing: { nextAt: 0, busyStreak: 0 },
      delayMs: 0,
      waiters: [],
      timer: null,
      ready: !this.options.shared,
    };
    this.queues.set(queueKey, created);
    if (this.options.shared) {
      void this.options.shared.load(queueKey).then((shared) => {
        if (shared)
          created.timing = {
            nextAt: Math.max(created.timing.nextAt, shared.nextAt),
            busyStreak: Math.max(created.timing.busyStreak, shared.busyStreak),
          };
        created.ready = true;
        this.pump(created);
      });
    }
    return created;
  }

  private permit(queue: QueueState, delayMs: number): Permit {
    let released = false;
    return {
      release: (feedback = NOT_REACHED) => {
        if (released) return;
        released = true;
        queue.active--;
        this.globalActive--;
        const before = queue.timing;
        const now = this.now();
        queue.timing = afterRequest(before, feedback, delayMs, now, this.options.slowDown);
        // Worth a round trip only if another fetcher could notice it: a pause of a second or more, or a streak change.
        if (this.options.shared && (queue.timing.nextAt - now >= 1000 || queue.timing.busyStreak !== before.busyStreak))
          this.options.shared.save(queue.key, queue.timing, now);
        this.pump(queue);
        for (const starved of [...this.starved]) {
          if (this.globalActive >= this.options.globalConcurrency) break;
          this.starved.delete(starved);
          this.pump(starved);
        }
      },
    };
  }

  private pump(queue: QueueState): void {
    if (!queue.ready) return;
    while (queue.waiters.length > 0 && queue.active < this.options.perQueueConcurrency) {
      if (this.globalActive >= this.options.globalConcurrency) {
        this.starved.add(queue);
        return;
      }
      const wait = queue.timing.nextAt - this.now();
      if (wait > 0) {
        if (!queue.timer) {
          queue.timer = setTimeout(() => {
            queue.timer = null;
            this.pump(queue);
          }, wait);
        }
        return;
      }
      const waiter = queue.waiters.shift()!;
      queue.active++;
      this.globalActive++;
      queue.timing = { ...queue.timing, nextAt: this.now() + waiter.delayMs };
      waiter.grant(this.permit(queue, waiter.delayMs));
    }
  }

  /** Drops queues nobody waits for whose pause is over; a back-off streak is kept until its longest hold could have passed. */
  private sweep(): void {
    const now = this.now();
    for (const [key, queue] of this.queues) {
      if (queue.active > 0 || queue.waiters.length > 0 || queue.timing.nextAt > now) continue;
      if (queue.timing.busyStreak > 0 && queue.timing.nextAt + this.options.slowDown.maxBackoffMs > now) continue;
      this.starved.delete(queue);
      this.queues.delete(key);
    }
  }
}
