import { describe, expect, it } from 'vitest';
import { afterRequest, type SlowDownOptions } from './slow-down.js';

const options: SlowDownOptions = { delayFactor: 2, backoffBaseMs: 1000, maxBackoffMs: 60_000, maxRetryAfterMs: 30_000 };
const fresh = { nextAt: 0, busyStreak: 0 };

describe('afterRequest', () => {
  it('spaces requests by the delay, counted from the end of the request', () => {
    expect(afterRequest(fresh, { signal: 'answered', durationMs: 10 }, 500, 10_000, options)).toEqual({
      nextAt: 10_500,
      busyStreak: 0,
    });
  });

  it('stretches the delay when the site answers slowly, up to the cap', () => {
    expect(afterRequest(fresh, { signal: 'answered', durationMs: 1500 }, 500, 10_000, options).nextAt).toBe(13_000);
    expect(afterRequest(fresh, { signal: 'answered', durationMs: 600_000 }, 500, 10_000, options).nextAt).toBe(70_000);
  });

  it('honours Retry-After up to its cap, and backs off exponentially without it', () => {
    expect(afterRequest(fresh, { signal: 'busy', durationMs: 5, retryAfterMs: 7000 }, 0, 0, options)).toEqual({
      nextAt: 7000,
      busyStreak: 1,
    });
    expect(afterRequest(fresh, { signal: 'busy', durationMs: 5, retryAfterMs: 3_600_000 }, 0, 0, options).nextAt).toBe(
      30_000,
    );
    let timing = fresh;
    const holds: number[] = [];
    for (let i = 0; i < 8; i++) {
      timing = afterRequest(timing, { signal: 'busy', durationMs: 5 }, 0, 100_000, options);
      holds.push(timing.nextAt - 100_000);
    }
    expect(holds).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000]);
    expect(afterRequest(timing, { signal: 'answered', durationMs: 5 }, 0, 200_000, options).busyStreak).toBe(0);
  });

  it('keeps the streak and adds no slow-down when the request never reached the site', () => {
    expect(
      afterRequest({ nextAt: 0, busyStreak: 3 }, { signal: 'unreached', durationMs: 9000 }, 100, 1000, options),
    ).toEqual({ nextAt: 1100, busyStreak: 3 });
  });

  it('never moves a promised pause earlier', () => {
    expect(
      afterRequest({ nextAt: 50_000, busyStreak: 0 }, { signal: 'answered', durationMs: 1 }, 100, 1000, options).nextAt,
    ).toBe(50_000);
  });
});
