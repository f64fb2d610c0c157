import { describe, expect, it } from 'vitest';
import { OutcomeWindow } from './outcome-window.js';

describe('outcome window', () => {
  it('counts answers and error classes of the last window only, most frequent first', () => {
    const window = new OutcomeWindow(60_000);
    for (const [at, outcome] of [
      [1_000, 'timeout'],
      [70_000, 'ok'],
      [80_000, 'timeout'],
      [90_000, 'server_error'],
      [95_000, 'timeout'],
      [100_000, 'redirect'],
    ] as const)
      window.add(at, outcome);
    expect(window.counts(100_000)).toEqual({ answers: 5, errors: { timeout: 2, server_error: 1 } });
    expect(window.counts(200_000)).toEqual({ answers: 0, errors: {} });
  });
});
