import { describe, expect, it } from 'vitest';
import { parseDuration } from './parse-duration.js';

describe('parseDuration', () => {
  it('reads seconds, minutes and hours', () => {
    expect(parseDuration('90s')).toBe(90_000);
    expect(parseDuration('20m')).toBe(1_200_000);
    expect(parseDuration('1.5h')).toBe(5_400_000);
    expect(parseDuration('600')).toBe(600_000);
  });

  it('refuses what it cannot read, saying what it wants', () => {
    expect(() => parseDuration('twenty minutes')).toThrow(/90s, 20m or 1h/);
  });
});
