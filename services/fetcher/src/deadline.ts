/**
 * A URL's hard deadline: one timer and one controller, also aborted by the service's stop signal,
 * cleared as soon as the URL is done. Cheaper than AbortSignal.timeout + AbortSignal.any per URL,
 * whose weak references and finalizers show up as garbage-collection time at crawl rates.
 */
export class Deadline {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private expiredFlag = false;
  private readonly onStop = () => this.controller.abort(this.stop?.reason);

  constructor(
    readonly ms: number,
    private readonly stop?: AbortSignal,
  ) {
    this.timer = setTimeout(() => {
      this.expiredFlag = true;
      this.controller.abort(new DOMException(`no complete answer within ${ms} ms`, 'TimeoutError'));
    }, ms);
    if (stop?.aborted) this.onStop();
    else stop?.addEventListener('abort', this.onStop, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** True when the time ran out (not when the service stopped). */
  get expired(): boolean {
    return this.expiredFlag;
  }

  clear(): void {
    clearTimeout(this.timer);
    this.stop?.removeEventListener('abort', this.onStop);
  }
}
