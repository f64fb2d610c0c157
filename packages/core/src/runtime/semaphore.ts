/** Bounds work in flight; acquire() waits for a free slot, or fails once the semaphore is closed. */
export class Semaphore {
  private available: number;
  private readonly waiters: { resolve: (ok: boolean) => void }[] = [];
  private closed = false;

  constructor(readonly size: number) {
    this.available = size;
  }

  /** Resolves true with a slot, or false when closed while waiting. */
  acquire(): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    if (this.available > 0) {
      this.available--;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => this.waiters.push({ resolve }));
  }

  release(): void {
    const next = this.waiters.shift();
    if (next) next.resolve(true);
    else this.available++;
  }

  inUse(): number {
    return this.size - this.available;
  }

  waiting(): number {
    return this.waiters.length;
  }

  /** Wakes every waiter with false; later acquires fail at once. */
  close(): void {
    this.closed = true;
    for (const waiter of this.waiters.splice(0)) waiter.resolve(false);
  }
}
