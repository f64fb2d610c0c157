import { describe, expect, it } from 'vitest';
import { Deadline } from './deadline.js';

describe('Deadline', () => {
  it('aborts when its time runs out, and says so', async () => {
    const deadline = new Deadline(20);
    await new Promise((resolve) => deadline.signal.addEventListener('abort', resolve, { once: true }));
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.expired).toBe(true);
    expect((deadline.signal.reason as Error).name).toBe('TimeoutError');
  });

  it('aborts when the service stops, without calling that a timeout', () => {
    const stop = new AbortController();
    const deadline = new Deadline(10_000, stop.signal);
    stop.abort(new Error('stopping'));
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.expired).toBe(false);
    deadline.clear();
  });

  it('never aborts once cleared', async () => {
    const stop = new AbortController();
    const deadline = new Deadline(10, stop.signal);
    deadline.clear();
    stop.abort();
    // negative window: three times the 10 ms deadline, in which a cleared deadline must not fire; holds however slow the machine.
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(deadline.signal.aborted).toBe(false);
  });
});
