import { describe, expect, it } from 'vitest';
import { formatAge, formatPartitions, formatTable } from './format.js';

describe('ops formatting', () => {
  it('aligns columns, numbers to the right', () => {
    expect(
      formatTable(
        ['name', 'lag'],
        [
          ['fetcher', 12],
          ['dedup', 3],
        ],
      ),
    ).toBe('name     lag\nfetcher   12\ndedup      3');
  });

  it("shows each cell as one inert line: a dead letter's reason cannot add a row or colour the terminal", () => {
    const table = formatTable(['code', 'reason'], [['X', 'bad\nforged row\u001b[31m http://u:pw@h.test/']]);
    expect(table.split('\n')).toHaveLength(2);
    expect(table).toContain('bad\\nforged row\\x1b[31m http://[redacted]@h.test/');
  });

  it('says how long ago, in the unit that reads best', () => {
    expect(formatAge(null, 0)).toBe('never');
    expect(formatAge(0, 45_000)).toBe('45s ago');
    expect(formatAge(0, 300_000)).toBe('5m ago');
    expect(formatAge(0, 3 * 3_600_000 + 5 * 60_000)).toBe('3h05m ago');
  });

  it('folds partition lists into ranges', () => {
    expect(formatPartitions([3, 0, 1, 2, 7, 9, 10].map((partition) => ({ topic: 'crawl.frontier', partition })))).toBe(
      'crawl.frontier 0-3,7,9-10',
    );
  });
});
