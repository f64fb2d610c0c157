export interface PolitenessOptions {
  /** Requests in flight across all queues. */
  globalConcurrency: number;
  /** Requests in flight to one queue (host). */
  perQueueConcurrency: number;
  /** Minimum time between two requests to one queue, counted from the start and from the end of the previous one. */
  minDelayMs: number;
  now?: () => number;
}

export interface Permit {
  /** Ends the request; `holdMs` keeps the queue closed longer (Retry-After, back-off). */
  release(options?: { holdMs?: number }): void;
}

interface QueueState {
  active: number;
  nextAt: number;
  delayMs: number;
  waiters: (() => void)[];
  timer: NodeJS.Timeout | null;
}

/**
 * Decides when each request may go: at most N in flight per queue and globally, and a minimum
 * delay between requests to one queue (the larger of the configured delay and the site's
 * Crawl-delay). Waiting requests wait in memory, bounded by how many messages the stage accepts.
 */
export class PolitenessGate {
  private readonly queues = new Map<string, QueueState>();
  private globalActive = 0;
  /** Queues that could go but for the global limit, in arrival order. */
  private readonly starved = new Set<QueueState>();
  private readonly now: () => number;

  constructor(private readonly options: PolitenessOptions) {
    this.now = options.now ?? Date.now;
  }

  acquire(queueKey: string, delayMs = 0): Promise<Permit> {
    let queue = this.queues.get(queueKey);
    if (!queue) {
      queue = { active: 0, nextAt: 0, delayMs: 0, waiters: [], timer: null };
      this.queues.set(queueKey, queue);
    }
    queue.delayMs = Math.max(this.options.minDelayMs, delayMs);
    const state = queue;
    return new Promise<Permit>((resolve) => {
      state.waiters.push(() => resolve(this.permit(queueKey, state)));
      this.pump(state);
    });
  }

  /** Requests waiting per queue, for metrics and tests. */
  depth(): { queues: number; waiting: number; active: number } {
    let waiting = 0;
    for (const queue of this.queues.values()) waiting += queue.waiters.length;
    return { queues: this.queues.size, waiting, active: this.globalActive };
  }

  private permit(queueKey: string, queue: QueueState): Permit {
    let released = false;
    return {
      release: (options = {}) => {
        if (released) return;
        released = true;
        queue.active--;
        this.globalActive--;
        queue.nextAt = Math.max(queue.nextAt, this.now() + queue.delayMs, this.now() + (options.holdMs ?? 0));
        this.pump(queue);
        for (const starved of [...this.starved]) {
          if (this.globalActive >= this.options.globalConcurrency) break;
          this.starved.delete(starved);
          this.pump(starved);
        }
        if (queue.active === 0 && queue.waiters.length === 0 && queue.nextAt <= this.now()) this.queues.delete(queueKey);
      },
    };
  }

  private pump(queue: QueueState): void {
    while (queue.waiters.length > 0 && queue.active < this.options.perQueueConcurrency) {
      if (this.globalActive >= this.options.globalConcurrency) {
        this.starved.add(queue);
        return;
      }
      const wait = queue.nextAt - this.now();
      if (wait > 0) {
        if (!queue.timer) {
          queue.timer = setTimeout(() => {
            queue.timer = null;
            this.pump(queue);
          }, wait);
        }
        return;
      }
      queue.active++;
      this.globalActive++;
      if (queue.delayMs > 0) queue.nextAt = this.now() + queue.delayMs;
      queue.waiters.shift()!();
    }
  }
}
