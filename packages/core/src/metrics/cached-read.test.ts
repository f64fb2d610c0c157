import { describe, expect, it } from 'vitest';
import { cachedRead } from './cached-read.js';

describe('cached read', () => {
  it('shares one call among concurrent readers and reuses its result until it is too old', async () => {
    let calls = 0;
    let now = 0;
    const read = cachedRead(async () => ++calls, {
      maxAgeMs: 1000,
      timeoutMs: 1000,
      now: () => now,
      fallback: () => -1,
    });
    expect(await Promise.all([read(), read(), read()])).toEqual([1, 1, 1]);
    now = 999;
    expect(await read()).toBe(1);
    now = 1000;
    expect(await read()).toBe(2);
  });

  it('answers with the fallback when the read fails or hangs', async () => {
    const errors: string[] = [];
    const fallback = (error: unknown) => {
      errors.push((error as { code?: string }).code ?? (error as Error).message);
      return 0;
    };
    expect(
      await cachedRead(async () => Promise.reject(new Error('down')), { maxAgeMs: 0, timeoutMs: 1000, fallback })(),
    ).toBe(0);
    expect(
      await cachedRead(() => new Promise<number>(() => undefined), { maxAgeMs: 0, timeoutMs: 20, fallback })(),
    ).toBe(0);
    expect(errors).toEqual(['down', 'METRICS_READ_TIMEOUT']);
  });
});
