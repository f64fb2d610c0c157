import { describe, expect, it } from 'vitest';
import { median, spread } from './stats.js';

describe('median and spread', () => {
  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('keeps the range and the count beside the median', () => {
    expect(spread([10, 30, 20])).toEqual({ median: 20, min: 10, max: 30, n: 3 });
  });
});
