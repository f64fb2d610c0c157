import { waitFor } from '@crawler/core/testing';
import { describe, expect, it } from 'vitest';
import { RefreshGate } from './refresh-gate.js';

function counting(minIntervalMs: number, fail = false) {
  const calls: number[] = [];
  const gate = new RefreshGate(async () => {
    calls.push(Date.now());
    // simulated work: a refresh takes a little while, so others can arrive during it.
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (fail) throw new Error('cluster down');
  }, minIntervalMs);
  return { gate, calls };
}

describe('RefreshGate', () => {
  it('refreshes only when something was written since the last refresh', async () => {
    const { gate, calls } = counting(0);
    await gate.awaitVisible();
    expect(calls).toHaveLength(0);
    gate.wrote();
    await gate.awaitVisible();
    await gate.awaitVisible();
    expect(calls).toHaveLength(1);
  });

  it('shares one refresh among searches waiting at the same time', async () => {
    const { gate, calls } = counting(0);
    gate.wrote();
    await Promise.all([gate.awaitVisible(), gate.awaitVisible(), gate.awaitVisible()]);
    expect(calls).toHaveLength(1);
  });

  it('waits out the interval rather than show stale results', async () => {
    const { gate, calls } = counting(80);
    gate.wrote();
    await gate.awaitVisible();
    gate.wrote();
    await gate.awaitVisible();
    expect(calls).toHaveLength(2);
    expect(calls[1]! - calls[0]!).toBeGreaterThanOrEqual(75);
  });

  it('refreshes again for a write acknowledged while a refresh was running', async () => {
    const { gate, calls } = counting(0);
    gate.wrote();
    const first = gate.awaitVisible();
    // Checked without yielding to timers, so the write lands while the refresh's 5 ms are running.
    await waitFor(() => calls.length === 1, 10_000, 1, 'the first refresh to start');
    gate.wrote();
    await Promise.all([first, gate.awaitVisible()]);
    expect(calls).toHaveLength(2);
  });

  it('refreshes at once when asked to, whatever the interval', async () => {
    const { gate, calls } = counting(60_000);
    gate.wrote();
    await gate.awaitVisible();
    await gate.refreshNow();
    expect(calls).toHaveLength(2);
  });

  it('passes a failed refresh to every waiter and tries again next time', async () => {
    const { gate, calls } = counting(0, true);
    gate.wrote();
    await expect(Promise.all([gate.awaitVisible(), gate.awaitVisible()])).rejects.toThrow('cluster down');
    await expect(gate.awaitVisible()).rejects.toThrow('cluster down');
    expect(calls).toHaveLength(2);
  });
});
