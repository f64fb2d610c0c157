import { describe, expect, it } from 'vitest';
import { TimeBudget } from './time-budget.js';

describe('TimeBudget', () => {
  it('allows a step that fits beside the time held back for later ones', () => {
    let now = 0;
    const budget = new TimeBudget(60_000, () => now);
    expect(budget.allows('peers', 30_000, 20_000)).toBe(true);
    now = 35_000;
    expect(budget.remainingMs()).toBe(25_000);
    expect(budget.allows('more rounds', 10_000, 20_000)).toBe(false);
    expect(budget.allows('stages', 20_000)).toBe(true);
  });

  it('records what it skipped and why', () => {
    const budget = new TimeBudget(10_000, () => 0);
    budget.allows('scale 1M', 600_000);
    budget.skip('stack peers', 'the stack is not running');
    expect(budget.skipped).toEqual([
      { what: 'scale 1M', why: 'needs about 600 s, 10 s of the budget left for it' },
      { what: 'stack peers', why: 'the stack is not running' },
    ]);
  });
});
