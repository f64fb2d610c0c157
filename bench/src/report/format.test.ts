import { describe, expect, it } from 'vitest';
import { formatRatio, formatSpread, markdownTable } from './format.js';

describe('report formats', () => {
  it('writes ratios with two significant digits below 10', () => {
    expect(formatRatio(0.04567)).toBe('0.046');
    expect(formatRatio(3.21)).toBe('3.2');
    expect(formatRatio(14.4)).toBe('14');
    expect(formatRatio(Number.NaN)).toBe('n/a');
  });

  it('writes a median with its range, or alone when the runs agree', () => {
    expect(formatSpread({ median: 1020, min: 814, max: 1100, n: 3 })).toBe('1,020 (814–1,100)');
    expect(formatSpread({ median: 5, min: 5, max: 5, n: 3 })).toBe('5');
    expect(formatSpread({ median: 5, min: 4, max: 6, n: 1 })).toBe('5');
  });

  it('builds a markdown table and escapes pipes in cells', () => {
    expect(markdownTable(['a', 'b'], [['1', 'x|y']])).toBe('| a | b |\n| --- | --- |\n| 1 | x\\|y |');
  });
});
