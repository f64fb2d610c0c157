/**
 * Counts a page's requests in flight and tells when it has settled: nothing in flight for
 * `idleMs`. Short script timers that add content after a request also fit in that window.
 */
export class NetworkIdle {
  private inFlight = 0;
  private lastActivity = Number.NEGATIVE_INFINITY;
  private wake: (() => void) | null = null;

  begin(): void {
    this.inFlight++;
    this.lastActivity = performance.now();
  }

  end(): void {
    this.inFlight--;
    this.lastActivity = performance.now();
    this.wake?.();
  }

  /** Requests started so far have all finished. */
  get quiet(): boolean {
    return this.inFlight === 0;
  }

  /** Resolves once nothing was in flight for idleMs from now on, or when `signal` aborts (the page's time is up). */
  async settle(idleMs: number, signal: AbortSignal): Promise<void> {
    // Quiet before the call does not count: scripts started by what just happened (a load, a scroll) need their window.
    const since = performance.now();
    while (!signal.aborted) {
      const quietFor = performance.now() - Math.max(this.lastActivity, since);
      if (this.inFlight === 0 && quietFor >= idleMs) return;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          this.wake = null;
          resolve();
        };
        const timer = setTimeout(done, this.inFlight === 0 ? idleMs - quietFor : idleMs);
        signal.addEventListener('abort', done, { once: true });
        this.wake = done;
      });
    }
  }
}
