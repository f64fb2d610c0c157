import { describe, expect, it } from 'vitest';
import { PolitenessGate } from './politeness-gate.js';

describe('PolitenessGate', () => {
  it('spaces requests to one queue by the delay, from start and from end', async () => {
    const gate = new PolitenessGate({ globalConcurrency: 10, perQueueConcurrency: 1, minDelayMs: 50 });
    const starts: number[] = [];
    await Promise.all(
      [0, 1, 2].map(async () => {
        const permit = await gate.acquire('a');
        starts.push(Date.now());
        await new Promise((resolve) => setTimeout(resolve, 20));
        permit.release();
      }),
    );
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(68);
    expect(starts[2]! - starts[1]!).toBeGreaterThanOrEqual(68);
  });

  it('uses the larger of the configured delay and the crawl-delay', async () => {
    const gate = new PolitenessGate({ globalConcurrency: 10, perQueueConcurrency: 1, minDelayMs: 0 });
    const first = await gate.acquire('slow', 120);
    const t0 = Date.now();
    first.release();
    const second = await gate.acquire('slow', 120);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(110);
    second.release();
  });

  it('does not let one queue delay another', async () => {
    const gate = new PolitenessGate({ globalConcurrency: 10, perQueueConcurrency: 1, minDelayMs: 500 });
    (await gate.acquire('a')).release();
    const t0 = Date.now();
    (await gate.acquire('b')).release();
    expect(Date.now() - t0).toBeLessThan(50);
  });

  it('caps requests in flight per queue and globally', async () => {
    const gate = new PolitenessGate({ globalConcurrency: 3, perQueueConcurrency: 2, minDelayMs: 0 });
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
        await new Promise((resolve) => setTimeout(resolve, 3));
        active--;
        perQueue.set(key, perQueue.get(key)! - 1);
        permit.release();
      }),
    );
    expect(peak).toBe(3);
    expect(peakPerQueue).toBe(2);
    expect(gate.depth()).toEqual({ queues: 0, waiting: 0, active: 0 });
  });

  it('holds a queue closed for a Retry-After', async () => {
    const gate = new PolitenessGate({ globalConcurrency: 10, perQueueConcurrency: 1, minDelayMs: 0 });
    (await gate.acquire('busy')).release({ holdMs: 150 });
    const t0 = Date.now();
    (await gate.acquire('busy')).release();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
  });
});
