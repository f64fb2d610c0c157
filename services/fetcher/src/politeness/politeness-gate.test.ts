import { silentLogger } from '@crawler/core';
import { MemoryFingerprintStore } from '@crawler/embedded';
import { waitFor } from '@crawler/core/testing';
import { describe, expect, it } from 'vitest';
import { GateClosedError, PolitenessGate, QueueDeferredError, type PolitenessOptions } from './politeness-gate.js';
import { SharedPacing } from './shared-pacing.js';

const slowDown = { delayFactor: 0, backoffBaseMs: 100, maxBackoffMs: 10_000, maxRetryAfterMs: 10_000 };
const gateWith = (options: Partial<PolitenessOptions> = {}) =>
  new PolitenessGate({
    globalConcurrency: 10,
    perQueueConcurrency: 1,
    minDelayMs: 0,
    slowDown,
    maxWaitingPerQueue: 1000,
    maxQueueWaitMs: 600_000,
    ...options,
  });
const answered = (durationMs = 1) => ({ signal: 'answered' as const, durationMs });

describe('PolitenessGate', () => {
  it('spaces requests to one queue by the delay, from start and from end', async () => {
    const gate = gateWith({ minDelayMs: 50 });
    const starts: number[] = [];
    await Promise.all(
      [0, 1, 2].map(async () => {
        const permit = await gate.acquire('a');
        starts.push(Date.now());
        // simulated work: a 20 ms request; a slower machine only lengthens it, which the lower bounds allow.
        await new Promise((resolve) => setTimeout(resolve, 20));
        permit.release(answered(20));
      }),
    );
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(68);
    expect(starts[2]! - starts[1]!).toBeGreaterThanOrEqual(68);
    gate.close();
  });

  it('uses the larger of the configured delay and the crawl-delay', async () => {
    const gate = gateWith();
    const first = await gate.acquire('slow', 120);
    const t0 = Date.now();
    first.release(answered());
    const second = await gate.acquire('slow', 120);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(110);
    second.release();
    gate.close();
  });

  it('does not let one queue delay another', async () => {
    const gate = gateWith({ minDelayMs: 500 });
    (await gate.acquire('a')).release(answered());
    const t0 = Date.now();
    (await gate.acquire('b')).release(answered());
    expect(Date.now() - t0).toBeLessThan(50);
    gate.close();
  });

  it('caps requests in flight per queue and globally', async () => {
    const gate = gateWith({ globalConcurrency: 3, perQueueConcurrency: 2, sweepIntervalMs: 10 });
    let active = 0;
    let peak = 0;
    const perQueue = new Map<string, number>();
    let peakPerQueue = 0;
    await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const key = `q${i % 4}`;
        const permit = await gate.acquire(key);
        active++;
        perQueue.set(key, (perQueue.get(key) ?? 0) + 1);
        peak = Math.max(peak, active);
        peakPerQueue = Math.max(peakPerQueue, perQueue.get(key)!);
        // simulated work: a 3 ms request; the gate grants up to its caps at once, so the peaks do not depend on it.
        await new Promise((resolve) => setTimeout(resolve, 3));
        active--;
        perQueue.set(key, perQueue.get(key)! - 1);
        permit.release(answered());
      }),
    );
    expect(peak).toBe(3);
    expect(peakPerQueue).toBe(2);
    await waitFor(
      () => {
        expect(gate.depth()).toEqual({ queues: 0, waiting: 0, active: 0 });
        return true;
      },
      10_000,
      10,
      'the sweep to drop the idle queues',
    );
    gate.close();
  });

  it('holds a queue closed for a Retry-After, and waits longer when the site answers slowly', async () => {
    const gate = gateWith({ slowDown: { ...slowDown, delayFactor: 2 } });
    (await gate.acquire('busy')).release({ signal: 'busy', durationMs: 1, retryAfterMs: 150 });
    let t0 = Date.now();
    (await gate.acquire('busy')).release(answered(60));
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
    t0 = Date.now();
    (await gate.acquire('busy')).release(answered());
    expect(Date.now() - t0).toBeGreaterThanOrEqual(110); // twice the 60 ms answer
    gate.close();
  });

  it('turns URLs away from a queue that is full or would keep them waiting too long', async () => {
    const gate = gateWith({ minDelayMs: 1000, maxWaitingPerQueue: 3, maxQueueWaitMs: 2500 });
    const permit = await gate.acquire('slow');
    expect(gate.admit('slow')).toEqual({ admitted: true });
    const controller = new AbortController();
    const waiting = [gate.acquire('slow', 0, controller.signal), gate.acquire('slow', 0, controller.signal)];
    // One in flight and two waiting, a second apart: a fourth would wait past the 2.5 s limit.
    expect(gate.admit('slow')).toEqual({ admitted: false, retryAfterMs: expect.any(Number) });
    expect((gate.admit('slow') as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(2500);
    expect(gateWith({ maxWaitingPerQueue: 2 }).admit('other')).toEqual({ admitted: true });
    expect(gate.admit('another-host')).toEqual({ admitted: true });
    controller.abort();
    await expect(Promise.all(waiting)).rejects.toBeInstanceOf(GateClosedError);
    expect(gate.depth().waiting).toBe(0);
    permit.release();
    gate.close();
  });

  it('turns URLs away past the per-queue cap even when the wait is short', async () => {
    const gate = gateWith({ maxWaitingPerQueue: 2 });
    const permit = await gate.acquire('q');
    const waiting = [gate.acquire('q'), gate.acquire('q')];
    expect(gate.admit('q')).toMatchObject({ admitted: false });
    permit.release(answered());
    for (const next of waiting) (await next).release(answered());
    gate.close();
  });

  it('shares a queue’s pause and back-off with another gate through the store', async () => {
    const store = new MemoryFingerprintStore();
    const a = gateWith({ shared: new SharedPacing(store, silentLogger()) });
    const b = gateWith({ shared: new SharedPacing(store, silentLogger()) });
    (await a.acquire('host')).release({ signal: 'busy', durationMs: 1, retryAfterMs: 1200 });
    expect(a.timing('host')?.busyStreak).toBe(1);
    const t0 = Date.now();
    const permit = await b.acquire('host');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1100);
    expect(b.timing('host')?.busyStreak).toBe(1);
    permit.release({ signal: 'busy', durationMs: 1 }); // no Retry-After: the shared streak doubles the hold
    expect(b.timing('host')!.nextAt - Date.now()).toBeGreaterThan(150);
    a.close();
    b.close();
  });

  it('spaces the requests of two gates sharing a store as one queue', async () => {
    const store = new MemoryFingerprintStore();
    const gates = [0, 1].map(() => gateWith({ minDelayMs: 200, shared: new SharedPacing(store, silentLogger()) }));
    const starts: number[] = [];
    await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const permit = await gates[i % 2]!.acquire('domain:example.org');
        starts.push(Date.now());
        permit.release(answered());
      }),
    );
    starts.sort((x, y) => x - y);
    // Slots are 200 ms apart and a slot woken late is given up; what is left to narrow a gap is the
    // time from a grant to its start on a busy machine, never the ~0 ms of two unshared gates.
    for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(120);
    for (const gate of gates) gate.close();
  });

  it('takes a fresh slot instead of going when it wakes long after its reserved one', async () => {
    const store = new MemoryFingerprintStore();
    // Other fetchers hold the slots at 0 and 200 ms: this gate's is at 400 ms.
    const others = new SharedPacing(store, silentLogger());
    for (let i = 0; i < 2; i++) await others.reserve('q', 200, 60_000);
    let skew = 0;
    const gate = gateWith({
      minDelayMs: 200,
      shared: new SharedPacing(store, silentLogger()),
      now: () => Date.now() + skew,
    });
    const t0 = Date.now();
    const permit = gate.acquire('q');
    // Its clock then says the timer of that slot fires 500 ms late.
    skew = 500;
    (await permit).release(answered());
    // Going when woken would be at 400 ms; the missed slot stays taken, so the fresh one is at 600 ms.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(560);
    gate.close();
  });

  it('hands waiting URLs back when the other fetchers hold the queue’s slots longer than they may wait', async () => {
    const store = new MemoryFingerprintStore();
    // Other fetchers reserved the next three seconds of the queue.
    const others = new SharedPacing(store, silentLogger());
    for (let i = 0; i < 3; i++) await others.reserve('q', 1000, 60_000);
    const late = gateWith({ minDelayMs: 1000, maxQueueWaitMs: 1500, shared: new SharedPacing(store, silentLogger()) });
    const t0 = Date.now();
    const refused = late.acquire('q');
    await expect(refused).rejects.toBeInstanceOf(QueueDeferredError);
    await expect(refused).rejects.toMatchObject({ code: 'FETCHER_QUEUE_FULL', retryAfterMs: expect.any(Number) });
    expect(Date.now() - t0).toBeLessThan(500);
    // Later URLs are turned away by admission, without asking the store.
    expect(late.admit('q')).toMatchObject({ admitted: false });
    // A caller that may wait that long gets the slot after them.
    const patient = await late.acquire('q', 0, undefined, { maxWaitMs: 10_000 });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(2900);
    patient.release(answered());
    late.close();
  });

  it('spaces by its own timing while the shared store does not answer', async () => {
    const store = new MemoryFingerprintStore();
    store.pace = () => Promise.reject(new Error('store down'));
    const gate = gateWith({ minDelayMs: 100, shared: new SharedPacing(store, silentLogger()) });
    const t0 = Date.now();
    (await gate.acquire('q')).release(answered());
    (await gate.acquire('q')).release(answered());
    expect(Date.now() - t0).toBeGreaterThanOrEqual(95);
    gate.close();
  });
  it("lets front requests (a rendering page's sub-requests) go before waiting URLs, in their own order", async () => {
    const gate = gateWith();
    const held = await gate.acquire('site');
    const order: string[] = [];
    const take = (name: string, front: boolean) =>
      gate.acquire('site', 0, undefined, { front }).then((permit) => {
        order.push(name);
        permit.release(answered());
      });
    const waiting = [take('url-1', false), take('url-2', false), take('sub-1', true), take('sub-2', true)];
    held.release(answered());
    await Promise.all(waiting);
    expect(order).toEqual(['sub-1', 'sub-2', 'url-1', 'url-2']);
    gate.close();
  });
});
