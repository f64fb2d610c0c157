import { describe, expect, it } from 'vitest';
import { HostBudget } from './host-budget.js';

describe('HostBudget', () => {
  it('admits up to the budget of distinct URLs per host, and known URLs again', () => {
    const budget = new HostBudget(2);
    expect(['/a', '/b', '/c'].map((path) => budget.admit('a.test', `http://a.test${path}`))).toEqual([
      true,
      true,
      false,
    ]);
    expect(budget.admit('a.test', 'http://a.test/a')).toBe(true);
    expect(budget.admit('b.test', 'http://b.test/c')).toBe(true);
  });

  it('admits everything when the budget is 0', () => {
    const budget = new HostBudget(0);
    expect(Array.from({ length: 100 }, (_, i) => budget.admit('a.test', `http://a.test/${i}`)).every(Boolean)).toBe(
      true,
    );
  });

  it('forgets the least recently seen host past its host cap', () => {
    const budget = new HostBudget(1, 2);
    budget.admit('a.test', 'http://a.test/1');
    budget.admit('b.test', 'http://b.test/1');
    budget.admit('a.test', 'http://a.test/1');
    budget.admit('c.test', 'http://c.test/1');
    expect(budget.admit('a.test', 'http://a.test/2')).toBe(false);
    expect(budget.admit('b.test', 'http://b.test/2')).toBe(true);
  });
});
