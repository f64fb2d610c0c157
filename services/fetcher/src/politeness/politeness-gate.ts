import { CrawlerError, ErrorCode, type PaceGrant } from '@crawler/core';
import type { SharedPacing, SiteTurn } from './shared-pacing.js';
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
  /** Slots reserved in the shared store, so spacing holds across fetchers (distributed mode); null: this process only. */
  shared?: SharedPacing | null;
  now?: () => number;
  /** How often idle queues are dropped (default 5 s). */
  sweepIntervalMs?: number;
}

export interface Permit {
  /** Ends the request; what happened decides when the queue may go again. */
  release(feedback?: Feedback): void;
  /** The one request a blocked site lets through once its block is over: its answer decides whether the block goes on. */
  readonly probe: boolean;
  /** Blocks in a row of the request's site (0: not blocked). */
  readonly blockStreak: number;
}

export type Admission = { admitted: true } | { admitted: false; retryAfterMs: number };

/** The fetcher is stopping and a URL was still waiting for its turn: it is handed back, not failed. */
export class GateClosedError extends CrawlerError {
  constructor() {
    super(ErrorCode.FETCHER_STOPPING, 'the fetcher is stopping; the URL is handed back uncommitted');
  }
}

/**
 * No slot soon enough: the queue's next one (other fetchers took those before) is further away
 * than the URL may wait (`spacing`), the site's budget is spent until then (`limit`), or the
 * site blocks us until then (`block`).
 */
export class QueueDeferredError extends CrawlerError {
  constructor(
    readonly retryAfterMs: number,
    readonly reason: 'spacing' | 'limit' | 'block' = 'spacing',
  ) {
    super(ErrorCode.FETCHER_QUEUE_FULL, `no slot for ${Math.round(retryAfterMs)} ms (${reason})`);
  }
}

/** A slot this late is given up for a fresh one: a tenth of the spacing, at least 10 ms. */
const lateToleranceMs = (spacingMs: number) => Math.max(10, spacingMs / 10);
/** Fresh slots a request takes for slots it missed, before it goes however late. */
const MAX_LATE_RESERVATIONS = 3;

interface Waiter {
  delayMs: number;
  front: boolean;
  /** Longest this request may wait for a slot. */
  maxWaitMs: number;
  grant(permit: Permit): void;
  defer(retryAfterMs: number, reason: QueueDeferredError['reason']): void;
  /** The site the request counts against, in the shared reservation. */
  site: SiteTurn | null;
  aborted: boolean;
  /** The wait for a reserved slot, cleared if the waiter aborts. */
  sleep: NodeJS.Timeout | null;
}

interface QueueState {
  key: string;
  /** Requests in flight, and claims whose shared reservation is pending or whose slot has not come yet. */
  active: number;
  timing: QueueTiming;
  /** Spacing the latest request asked for: the estimate for URLs that wait. */
  delayMs: number;
  waiters: Waiter[];
  timer: NodeJS.Timeout | null;
}

const NOT_REACHED: Feedback = { signal: 'unreached', durationMs: 0 };
/** What a request's end adds to its queue's pause is shared only past this: a fast answer's few milliseconds are not worth a round trip. */
const HOLD_WORTH_MS = 250;

/**
 * Decides when each request may go: at most N in flight per queue and globally, a minimum delay
 * between requests to one queue (the larger of the configured delay and the site's Crawl-delay),
 * stretched when the site answers slowly and held after 429/503. With shared pacing every grant
 * is a slot reserved in the store, so the spacing holds across all fetchers; in-flight caps stay
 * per process. Waiting requests wait in memory, bounded per queue by admit() and in all by how
 * many messages the stage accepts. Idle queues are swept, so memory follows the active hosts.
 */
export class PolitenessGate {
  private readonly queues = new Map<string, QueueState>();
  private globalActive = 0;
  /** Queues that could go but for the global limit, in arrival order. */
  private readonly starved = new Set<QueueState>();
  private readonly sleeping = new Set<NodeJS.Timeout>();
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
   * cannot hold every slot the stage has (the caller hands the URL back to the scheduler). A
   * front request goes ahead of the waiting URLs, so only the queue's pause and the front
   * requests ahead of it count, against the wait it can afford (`maxWaitMs`).
   */
  admit(queueKey: string, delayMs = 0, options: { front?: boolean; maxWaitMs?: number } = {}): Admission {
    const queue = this.queues.get(queueKey);
    if (!queue) return { admitted: true };
    const spacing = Math.max(this.options.minDelayMs, delayMs, queue.delayMs);
    const ahead =
      (options.front ? queue.waiters.filter((waiter) => waiter.front).length : queue.waiters.length) + queue.active;
    const estimate =
      Math.max(0, queue.timing.nextAt - this.now()) + Math.floor(ahead / this.options.perQueueConcurrency) * spacing;
    const full = !options.front && queue.waiters.length >= this.options.maxWaitingPerQueue;
    if (full || estimate > (options.maxWaitMs ?? this.options.maxQueueWaitMs))
      return { admitted: false, retryAfterMs: Math.max(estimate, spacing) };
    return { admitted: true };
  }

  /**
   * Resolves when the request may go; rejects with GateClosedError if `signal` aborts first, and
   * with QueueDeferredError if the queue's shared next slot is further than `maxWaitMs`.
   * `front` puts the request ahead of the queue's waiting URLs (still spaced like any request):
   * a rendering page's sub-requests, which hold a browser page while they wait.
   */
  acquire(
    queueKey: string,
    delayMs = 0,
    signal?: AbortSignal,
    options: { front?: boolean; maxWaitMs?: number; site?: SiteTurn } = {},
  ): Promise<Permit> {
    const queue = this.queueFor(queueKey);
    queue.delayMs = Math.max(this.options.minDelayMs, delayMs);
    return new Promise<Permit>((resolve, reject) => {
      if (signal?.aborted) return reject(new GateClosedError());
      const done = () => signal?.removeEventListener('abort', onAbort);
      const waiter: Waiter = {
        delayMs: queue.delayMs,
        front: options.front === true,
        maxWaitMs: options.maxWaitMs ?? this.options.maxQueueWaitMs,
        grant: (permit) => {
          done();
          resolve(permit);
        },
        defer: (retryAfterMs, reason) => {
          done();
          reject(new QueueDeferredError(retryAfterMs, reason));
        },
        site: options.site ?? null,
        aborted: false,
        sleep: null,
      };
      const onAbort = () => {
        waiter.aborted = true;
        const index = queue.waiters.indexOf(waiter);
        if (index >= 0) queue.waiters.splice(index, 1);
        if (waiter.sleep) {
          clearTimeout(waiter.sleep);
          this.sleeping.delete(waiter.sleep);
          this.unclaim(queue);
        }
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
    for (const sleep of this.sleeping) clearTimeout(sleep);
    this.sleeping.clear();
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
    };
    this.queues.set(queueKey, created);
    return created;
  }

  private permit(queue: QueueState, delayMs: number, grant: PaceGrant | null = null): Permit {
    let released = false;
    return {
      probe: grant?.probe ?? false,
      blockStreak: grant?.blockStreak ?? 0,
      release: (feedback = NOT_REACHED) => {
        if (released) return;
        released = true;
        const before = queue.timing;
        const now = this.now();
        queue.timing = afterRequest(before, feedback, delayMs, now, this.options.slowDown);
        // The reservation already spaced the next slot from this one's start; only a longer pause, or a streak change, is news to other fetchers.
        if (
          this.options.shared &&
          (queue.timing.nextAt - before.nextAt >= HOLD_WORTH_MS || queue.timing.busyStreak !== before.busyStreak)
        )
          this.options.shared.hold(queue.key, queue.timing.nextAt - now, queue.timing.busyStreak);
        this.unclaim(queue);
      },
    };
  }

  /** A request or a claim on a slot ended: its queue, and queues held back by the global cap, may go. */
  private unclaim(queue: QueueState): void {
    queue.active--;
    this.globalActive--;
    this.pump(queue);
    for (const starved of [...this.starved]) {
      if (this.globalActive >= this.options.globalConcurrency) break;
      this.starved.delete(starved);
      this.pump(starved);
    }
  }

  private pump(queue: QueueState): void {
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
      if (this.options.shared) void this.reserve(queue, waiter, this.options.shared);
      else waiter.grant(this.permit(queue, waiter.delayMs));
    }
  }

  /**
   * The waiter's slot in the shared store: granted when it comes. A slot too far away hands the
   * waiter (and every waiter that could not wait that long either) back; a store that does not
   * answer leaves this process's own spacing in charge.
   */
  private async reserve(queue: QueueState, waiter: Waiter, shared: SharedPacing, attempt = 0): Promise<void> {
    const asked = this.now();
    const grant = await shared.reserve(queue.key, waiter.delayMs, waiter.maxWaitMs, waiter.site).catch(() => null);
    const now = this.now();
    if (grant && !grant.reserved) {
      if (!waiter.aborted) waiter.defer(grant.waitMs, grant.limitedBy);
      // The queue's own slots are taken: no waiter that cannot wait as long stays. A site's budget or block concerns that site's URLs only.
      if (grant.limitedBy === 'spacing') {
        queue.timing = {
          nextAt: Math.max(queue.timing.nextAt, now + grant.waitMs),
          busyStreak: Math.max(queue.timing.busyStreak, grant.busyStreak),
        };
        const kept = queue.waiters.filter((other) => other.maxWaitMs >= grant.waitMs);
        for (const other of queue.waiters) if (!kept.includes(other)) other.defer(grant.waitMs, 'spacing');
        queue.waiters = kept;
      } else queue.timing = { ...queue.timing, nextAt: now };
      this.unclaim(queue);
      return;
    }
    if (grant)
      queue.timing = {
        nextAt: Math.max(queue.timing.nextAt, now + grant.waitMs + waiter.delayMs),
        busyStreak: Math.max(queue.timing.busyStreak, grant.busyStreak),
      };
    const go = () => {
      if (waiter.aborted) return this.unclaim(queue);
      // Woken well after its slot (a busy machine): going now would narrow the gap before the next
      // fetcher's slot, so take a fresh one after it; the missed slot stays taken, which errs polite.
      const late = grant ? this.now() - (asked + grant.waitMs) : 0;
      if (grant && grant.waitMs > 0 && late > lateToleranceMs(waiter.delayMs) && attempt < MAX_LATE_RESERVATIONS)
        return void this.reserve(queue, waiter, shared, attempt + 1);
      waiter.grant(this.permit(queue, waiter.delayMs, grant));
    };
    if (!grant || grant.waitMs <= 0) return go();
    const sleep = setTimeout(() => {
      this.sleeping.delete(sleep);
      waiter.sleep = null;
      go();
    }, grant.waitMs);
    waiter.sleep = sleep;
    this.sleeping.add(sleep);
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
