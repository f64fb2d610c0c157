import { describe, expect, it } from 'vitest';
import { waitFor } from './wait-for.js';

describe('waitFor', () => {
  it("returns the check's first passing value", async () => {
    let calls = 0;
    expect(await waitFor(() => ++calls >= 3 && { calls }, 1000, 1)).toEqual({ calls: 3 });
  });

  it('names what it waited for and the last failure when time runs out, reading a function then', async () => {
    let tail = 'before';
    const waiting = waitFor(
      () => {
        tail = 'at the timeout';
        throw new Error('not yet');
      },
      30,
      5,
      () => `the crawl (${tail})`,
    );
    await expect(waiting).rejects.toThrow('waited 30 ms for the crawl (at the timeout): Error: not yet');
  });

  it('rethrows the last failure as it is without a description', async () => {
    await expect(waitFor(() => false, 30, 5)).rejects.toThrow('condition still false');
  });
});
